"""shlo-expand-invariant-loop-updates: IREE 3.13 updated a tensor that a while loop leaves
unchanged in place when the loop's body wrote a dynamic_update_slice of it, so later iterations
read the updated tensor (jax's fori_loop over a closed-over array came out wrong on CPU and
Vulkan). XLA (jax) is the oracle; the pass must leave a loop's own carried buffer (a scan's
output) updated in place."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import shlo
from conftest import vulkan_or_skip
from shlo.passes.dispatch.expand_invariant_loop_updates import ExpandInvariantLoopUpdates


def dus_of_capture(a, u):
    def body(k, acc):
        return acc + lax.dynamic_update_slice(a, u, (k * 3,))
    return lax.fori_loop(0, 3, body, jnp.zeros_like(a))


def dus_clamped_start(a, u):         # starts past the end clamp to size - update size
    def body(k, acc):
        return acc + lax.dynamic_update_slice(a, u, (k * 30 - 20,))
    return lax.fori_loop(0, 4, body, jnp.zeros_like(a))


def dus_2d(a, u):
    def body(k, acc):
        return acc + lax.dynamic_update_slice(a.reshape(8, 8), u.reshape(2, 8)[:, :5],
                                              (k, 2 * k)).reshape(64)
    return lax.fori_loop(0, 3, body, jnp.zeros_like(a))


def dus_in_nested_loop(a, u):        # the inner loop's capture is the outer body's value
    def outer(j, acc):
        b = a * (j + 1)
        return lax.fori_loop(0, 2, lambda k, acc2: acc2 + lax.dynamic_update_slice(
            b, u, (k * 5,)), acc)
    return lax.fori_loop(0, 2, outer, jnp.zeros_like(a))


def dus_of_reshaped_capture(a, u):
    def body(k, acc):
        return acc + lax.dynamic_update_slice(a.reshape(8, 8), u.reshape(2, 8),
                                              (k, 0)).reshape(64)
    return lax.fori_loop(0, 3, body, jnp.zeros_like(a))


def dus_with_a_while_condition(a, u):   # a while_loop (not fori): the capture is carried
    def body(c):
        k, acc = c
        return k + 1, acc + lax.dynamic_update_slice(a, u, (k * 7,))
    return lax.while_loop(lambda c: c[0] < 3, body, (0, jnp.zeros_like(a)))[1]


PROGRAMS = [dus_of_capture, dus_clamped_start, dus_2d, dus_in_nested_loop,
            dus_of_reshaped_capture, dus_with_a_while_condition]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.complex64])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_loops_updating_a_capture_match_xla(ctx, program, dtype):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(64) * 10).astype(dtype)
    u = (rng.standard_normal(16) * 10).astype(dtype)
    if dtype == np.complex64:
        a = a + 1j * rng.standard_normal(64).astype(np.float32)
    fn = jax.jit(program)
    text = fn.lower(a, u).as_text()
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(a, u)
    np.testing.assert_allclose(got, np.asarray(fn(a, u)), rtol=1e-6)


def test_vulkan_loop_updating_a_capture_matches_xla(ctx):
    vulkan_or_skip()
    rng = np.random.default_rng(1)
    a, u = rng.standard_normal(64).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    fn = jax.jit(dus_2d)
    got = shlo.compile(shlo.parse_module(fn.lower(a, u).as_text(), context=ctx),
                       target="vulkan")(a, u)
    np.testing.assert_allclose(got, np.asarray(fn(a, u)), rtol=1e-6)


def _after_pass(ctx, program, *args) -> str:
    module = shlo.parse_module(jax.jit(program).lower(*args).as_text(), context=ctx)
    ExpandInvariantLoopUpdates().apply(module)
    return str(module)


def test_a_scans_own_buffer_stays_an_in_place_update(ctx):
    """A scan stacks its outputs with a dynamic_update_slice of a buffer the loop carries and
    changes: that update is IREE's to do in place, and the pass leaves it."""
    def scan(a):
        return lax.scan(lambda c, x: (c + x, c * x), 0.0, a)[1]
    a = np.arange(64, dtype=np.float32)
    text = _after_pass(ctx, scan, a)
    assert "stablehlo.dynamic_update_slice" in text and "stablehlo.select" not in text
    got = shlo.compile(jax.jit(scan).lower(a).as_text(), target="cpu")(a)
    np.testing.assert_allclose(got, np.asarray(jax.jit(scan)(a)), rtol=1e-6)


def test_an_update_outside_loops_stays(ctx):
    def update(a, u):
        return lax.dynamic_update_slice(a, u, (3,)) + a
    a, u = np.zeros(64, np.float32), np.ones(16, np.float32)
    text = _after_pass(ctx, update, a, u)
    assert "stablehlo.dynamic_update_slice" in text and "stablehlo.select" not in text

