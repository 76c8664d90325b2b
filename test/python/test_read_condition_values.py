"""shlo-read-condition-values: a top-level while loop whose condition alone reads carried
values (a rejection loop: the body draws new samples without reading the old ones) crashed
IREE's compiler (SIGSEGV in ConvertToStream's scf.while conversion), as StableHLO's testdata of
jax's random_gamma (2023) did; with the pass it compiles and matches XLA. jax's current
random_gamma, f32 and f64, matches jax for the same key."""
import numpy as np
import pytest

import shlo

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _rejection(dtype):
    def f(x):
        def cond(c):
            _, v, w = c
            return (jnp.log(v) < x) & (w < 0.99)       # only the condition reads v and w

        def body(c):
            k = c[0]
            return (k + 1, jnp.abs(jnp.sin(k * 12.9898 + 78.233)) + dtype(1e-3),
                    jnp.abs(jnp.cos(k * 0.37 + 0.5)) * dtype(0.98))
        k, v, _ = jax.lax.while_loop(cond, body, (dtype(0), dtype(1e-3), dtype(0)))
        return k, v
    return f


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_rejection_loop_compiles_and_matches_xla(ctx, dtype):
    with jax.enable_x64(True):
        f = _rejection(dtype)
        text = jax.jit(f).lower(dtype(0)).as_text()
        exe = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
        for x in (-0.5, -0.05, -0.01, -1e-4):       # 4, 5, 13 and more trips
            k, v = (np.asarray(r) for r in exe(np.asarray(x, dtype)))
            want_k, want_v = (np.asarray(r) for r in jax.jit(f)(np.asarray(x, dtype)))
            assert k == want_k, (x, k, want_k)
            np.testing.assert_allclose(v, want_v, rtol=1e-6 if dtype == np.float32 else 1e-14)


def test_the_body_reads_what_only_the_condition_read(ctx):
    from shlo.passes.pipeline import run_pipeline
    with jax.enable_x64(True):
        text = jax.jit(_rejection(np.float64)).lower(np.float64(0)).as_text()
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module, "builtin.module(inline, shlo-read-condition-values)")
    loop = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                if op.name == "stablehlo.while")
    body = loop.regions[1].blocks[0]
    assert all(list(argument.uses) for argument in body.arguments[1:])
    assert sum(op.name == "stablehlo.select" for op in body.operations) == 2


@pytest.mark.parametrize("dtype", [np.float32, pytest.param(np.float64, marks=pytest.mark.slow)])
@pytest.mark.slow
def test_jax_random_gamma_matches_jax(ctx, dtype):
    with jax.enable_x64(True):
        key = jax.random.PRNGKey(0)
        a = np.array([0.3, 1.0, 2.5, 10.0], dtype)
        f = jax.jit(lambda k, a: jax.random.gamma(k, a, (256, 4), dtype=dtype))
        exe = shlo.compile(shlo.parse_module(f.lower(key, a).as_text(), context=ctx),
                           target="cpu")
        got = np.asarray(exe(np.asarray(key), a))
        want = np.asarray(f(key, a))
    np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-12)


def _newton_sqrt(a):
    """Newton's square root until max |dx| <= 1e-6: the step dx is carried for the
    condition alone, which reads it through a reduce (a region)."""
    def cond(c):
        _, dx, i = c
        return (jnp.max(jnp.abs(dx)) > 1e-6) & (i < 50)

    def body(c):
        x, _, i = c
        nx = 0.5 * (x + a / x)
        return nx, nx - x, i + 1
    x, _, trips = jax.lax.while_loop(cond, body, (a, jnp.full_like(a, 1e9), 0))
    return x, trips


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_a_convergence_loop_reduced_in_its_condition(ctx, target):
    """A condition that reads a carried value through a reduce (jax's `while max|dx| > tol`)
    crashed IREE's compiler (SIGSEGV, cpu and vulkan, also without shlo's passes, killing the
    caller) when only the condition reads it; such conditions are no longer left alone. 64K
    elements against XLA."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    a = np.random.default_rng(4).uniform(0.5, 400.0, 65536).astype(np.float32)
    text = jax.jit(_newton_sqrt).lower(a).as_text()
    x, trips = (np.asarray(r) for r in
                shlo.compile(shlo.parse_module(text, context=ctx), target=target)(a))
    want_x, want_trips = (np.asarray(r) for r in jax.jit(_newton_sqrt)(a))
    assert trips == want_trips and 3 < trips < 50
    np.testing.assert_allclose(x, want_x, rtol=1e-6)
    np.testing.assert_allclose(x, np.sqrt(a.astype(np.float64)), rtol=1e-6)
