"""The vulkan target compiles without IREE's memoized command buffers (pipelines.targets,
NO_MEMOIZATION): recorded once, on the first call, IREE 3.13's command buffers made later
calls wrong on lavapipe, silently (a while loop's result concatenated with an argument: 24-27
of 30 calls wrong). Each program is called with its loop or branch changing between calls,
65536 elements, against XLA (test_bench_models: a bf16 training step without control flow)."""
import numpy as np
import pytest

import shlo
from shlo.pipelines.targets import NO_MEMOIZATION, get_target

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

N = 65536


def _halvings(x, y, p):
    """3 trips of r * 0.5 + y when p, else none (the loop's entry value)."""
    return jax.lax.while_loop(lambda c: c[0] < p.astype(jnp.int32) * 3,
                              lambda c: (c[0] + 1, c[1] * 0.5 + y), (0, x))[1]


def loop_then_argument(x, y, p, i):
    return jnp.concatenate([_halvings(x, y, p), x])


def convert_then_loop(x, y, p, i):
    z = jnp.sin(i.astype(jnp.float32))
    return jnp.concatenate([z, _halvings(x, y, p)])


def cond_of_a_value_read_after(x, y, p, i):
    z = i.astype(jnp.float32) * 0.25
    u = x + z
    r = jax.lax.cond(p, lambda: u + y, lambda: u * y)
    return jnp.concatenate([r, z])


def test_the_vulkan_target_compiles_without_memoization():
    assert NO_MEMOIZATION in get_target("vulkan").flags
    assert NO_MEMOIZATION not in get_target("cpu").flags


@pytest.mark.parametrize("f", [loop_then_argument, convert_then_loop,
                               cond_of_a_value_read_after], ids=lambda f: f.__name__)
@pytest.mark.every_case
def test_later_calls_match_xla_vulkan(f):
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    rng = np.random.default_rng(7)
    x, y = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    i = rng.integers(-1000, 1000, N).astype(np.int32)
    exe = shlo.compile(jax.jit(f, keep_unused=True).lower(x, y, np.bool_(True), i).as_text(),
                       target="vulkan", cache=False)
    for call, p in enumerate((True, False, False, True, True, False)):
        args = (x, y, np.bool_(p), i)
        np.testing.assert_allclose(np.asarray(exe(*args)), np.asarray(jax.jit(f)(*args)),
                                   rtol=1e-6, atol=1e-6, err_msg=f"call {call} (p={p})")
