"""shlo-unroll-scan-loops: counted loops that update a carried tensor run up to 24 steps a
trip (fewer where the unrolled body would pass `max-ops`), and give XLA's values (scans with
stacked outputs, a fori_loop from a non-zero start, a step that reads the buffer it writes);
loops that do not count, or whose trip count no factor up to 24 divides, loops that update no
carried tensor, and loops that also carry the tensor before its update (IREE's compiler crashed
on them unrolled), stay as they are. Counted loops of 8 trips or fewer (jax.random's 5-trip
threefry) become their body repeated, bit for bit the same values (nested, chained, zero and
one trips). Loops with a conditional in their body stay as they are (their unrolled
copies failed IREE's stream scheduling)."""
import numpy as np
import pytest

import shlo


def _programs():
    import jax.numpy as jnp
    from jax import lax

    def scan(x):
        def body(c, _):
            c = jnp.tanh(c * 1.01 + 0.5)
            return c, (c, c * 2.0, c - 1.0)
        return lax.scan(body, x, None, length=48)

    def reads_back(x):      # each step reads the row written two steps before
        def body(i, buf):
            row = lax.dynamic_slice(buf, (jnp.maximum(i - 2, 0), 0), (1, x.shape[1]))
            return lax.dynamic_update_slice(buf, jnp.sin(row) + i.astype(x.dtype), (i, 0))
        return lax.fori_loop(3, 43, body, x)

    def prime(x):           # 29 steps: no factor from 2 to 24 divides it
        def body(c, _):
            return c + 1.0, c
        return lax.scan(body, x[0], None, length=29)

    def keeps_previous(x):  # carries the buffer before each step's update and after it
        def body(i, carry):
            _, buf = carry
            row = lax.dynamic_slice(buf, (i, 0), (1, x.shape[1]))
            return buf, lax.dynamic_update_slice(buf, jnp.cos(row) + 1.0, (i + 1, 0))
        return lax.fori_loop(0, 48, body, (x, x))

    def short_loops(x):     # nested, chained, zero- and one-trip counted loops
        def inner(j, c):
            return jnp.sin(c) * 0.5 + j.astype(x.dtype)

        def outer(i, c):
            return lax.fori_loop(0, 4, inner, c) - i.astype(x.dtype)
        a = lax.fori_loop(0, 3, outer, x)
        b = lax.fori_loop(2, 7, lambda i, c: jnp.cos(c * 0.25 + a) * 0.5 + i, a)
        none = lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, inner(c[0], c[1])),
                              (7, x))[1]     # i = 7 < 5: no trip
        return a, b, none, lax.fori_loop(6, 7, inner, x)

    def complex_rows(x):    # a complex<f32> zero buffer written row by row in 3 trips
        def body(i, buf):
            row = lax.dynamic_slice(x, (i, 0), (1, x.shape[1]))
            return lax.dynamic_update_slice(buf, lax.complex(row, jnp.sin(row)), (i, 0))
        return lax.fori_loop(0, 3, body, jnp.zeros(x.shape, jnp.complex64))

    def conditional_updates(x):     # a lax.cond per step: not unrolled (IREE failed on it)
        def body(k, buf):           # (an integer division keeps it a conditional)
            upd = lax.cond(k % 2 == 0, lambda: jnp.ones(x.shape[1]) * (k // 2),
                           lambda: -jnp.ones(x.shape[1]))
            row = lax.dynamic_slice(buf, (k, 0), (1, x.shape[1]))
            return lax.dynamic_update_slice(buf, row + upd, (k, 0))
        short = lax.fori_loop(0, 4, lambda k, c: lax.switch(k % 3, [
            lambda: c * 0.5, lambda: jnp.sin(c), lambda: c + k]), x)
        return lax.fori_loop(0, 16, body, x), short

    return {"complex_rows": (complex_rows, (4, 1024)),
            "conditional_updates": (conditional_updates, (16, 256)),
            "scan": (scan, (16, 128)), "short_loops": (short_loops, (256, 1024)), "reads_back": (reads_back, (48, 32)),
            "prime": (prime, (4, 8)), "keeps_previous": (keeps_previous, (64, 1024))}


def _lowered(name):
    import jax
    fn, shape = _programs()[name]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    return fn, x, jax.jit(fn).lower(x).as_text()


@pytest.mark.parametrize("name", ["scan", "reads_back", "prime", "keeps_previous",
                                  "short_loops", "complex_rows", "conditional_updates"])
def test_agrees_with_xla(name):
    import jax
    fn, x, text = _lowered(name)
    got = shlo.compile(text, target="cpu")(x)
    want = jax.tree.leaves(jax.jit(fn)(x))
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5)


def _random(key):
    import jax
    k1, k2, k3 = jax.random.split(key, 3)
    logits = jax.random.normal(k3, (1024, 64))
    return (jax.random.uniform(k1, (1 << 20,)), jax.random.bits(k2, (1 << 20,)),
            jax.random.categorical(k3, logits, shape=(16, 1024)),
            jax.random.normal(k2, (1 << 20,)))


def _check_random(got, want):
    """Uniforms, bits and categorical draws equal; normals (through erf_inv, shlo's accurate
    maths against XLA's) close."""
    *exact, normal = got
    for g, w in zip(exact, want[:3]):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), strict=True)
    np.testing.assert_allclose(np.asarray(normal), np.asarray(want[3]), rtol=2e-5, atol=1e-6)


def _random_lowered():
    import jax
    key = jax.random.PRNGKey(11)
    return key, jax.jit(_random).lower(key).as_text()


def test_random_bit_for_bit_cpu(ctx):
    """jax.random's threefry (5-trip loops) unrolled: 1M uniforms and random bits and 16K
    categorical draws equal jax's own bit for bit (normals close: erf_inv)."""
    import jax
    from shlo.passes.pipeline import run_pipeline
    key, text = _random_lowered()
    module = shlo.parse_module(text, context=ctx)
    assert "stablehlo.while" in str(module)
    run_pipeline(module.operation, "builtin.module(inline, canonicalize, "
                                   "shlo-unroll-scan-loops{max-full-trips=8})")
    assert "stablehlo.while" not in str(module)
    _check_random(shlo.compile(str(module), target="cpu")(np.asarray(key)),
                  jax.jit(_random)(key))


@pytest.mark.slow
def test_random_bit_for_bit_vulkan(ctx):
    """The unrolled threefry module gives jax's values bit for bit on Vulkan too."""
    import jax
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    from shlo.passes.pipeline import run_pipeline
    key, text = _random_lowered()
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation, "builtin.module(inline, canonicalize, "
                                   "shlo-unroll-scan-loops{max-full-trips=8})")
    _check_random(shlo.compile(str(module), target="vulkan")(np.asarray(key)),
                  jax.jit(_random)(key))


@pytest.mark.parametrize("name, options, updates", [
    ("scan", "", 24 * 3), ("reads_back", "", 20), ("prime", "", 1), ("keeps_previous", "", 1),
    ("scan", "{max-factor=16}", 16 * 3), ("scan", "{max-ops=1}", 3)])
@pytest.mark.every_case
def test_steps_per_trip(ctx, name, options, updates):
    from shlo.passes.pipeline import run_pipeline
    _, _, text = _lowered(name)
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation,
                 f"builtin.module(inline, canonicalize, shlo-unroll-scan-loops{options})")
    assert str(module).count("stablehlo.dynamic_update_slice") == updates


@pytest.mark.parametrize("options, whiles, sines", [
    ("{max-full-trips=8}", 0, 3 * 4 + 0 + 1), ("{max-full-trips=3}", 3 + 1, 3 + 0 + 1),
    ("{max-full-trips=0}", 4, 1 + 0 + 1), ("{max-full-trips=-1}", 4, 1 + 0 + 1),
    ("", 0, 3 * 4 + 0 + 1)])
@pytest.mark.every_case
def test_short_loops_replaced(ctx, options, whiles, sines):
    """Counted loops of up to `max-full-trips` trips within `max-ops` become their body
    repeated: the 3-trip loop around a 4-trip one (12 sines), the 5-trip loop that reads the
    first one's result, the zero-trip loop (no sine) and the one-trip loop (one)."""
    from shlo.passes.pipeline import run_pipeline
    _, _, text = _lowered("short_loops")
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation,
                 f"builtin.module(inline, canonicalize, shlo-unroll-scan-loops{options})")
    assert str(module).count("stablehlo.while") == whiles
    assert str(module).count("stablehlo.sine") == sines
