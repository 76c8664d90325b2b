"""shlo-sink-concatenate-operands: jax programs that concatenate a `lax.cond`'s result (or a
value computed from it) with a value computed before the cond. IREE 3.13 failed to compile
them on cpu and vulkan ('operand #0 does not dominate this use'); with the pass they match
XLA, both branches, at 65536 elements."""
import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import shlo  # noqa: E402

N = 65536


def cond_then_concatenate(x, y, p, i):
    """The cond's result first, a convert computed before it second."""
    z = i.astype(jnp.float32)
    u = x + y
    r = jax.lax.cond(p, lambda: u + x, lambda: u * x)
    return jnp.concatenate([r, z])


def computed_from_the_cond(x, y, p, i):
    """A sine of the cond's result, with a convert and an argument."""
    z = i.astype(jnp.float32)
    u = x + y
    r = jax.lax.cond(p, lambda: u + x, lambda: u * x)
    return jnp.concatenate([jnp.sin(r), z, x])


def read_before_the_cond(x, y, p, i):
    """The convert is read before the cond too (the pass computes a copy after it)."""
    z = i.astype(jnp.float32)
    u = x + z
    r = jax.lax.cond(p, lambda: u + y, lambda: u * y)
    return jnp.concatenate([r, z])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_concatenates_of_a_cond_match_xla(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(746)
    x, y = (rng.standard_normal(N).astype(np.float32) for _ in range(2))
    i = rng.integers(-1000, 1000, N).astype(np.int32)
    for f in (cond_then_concatenate, computed_from_the_cond, read_before_the_cond):
        exe = shlo.compile(jax.jit(f).lower(x, y, np.bool_(True), i).as_text(), target=target)
        for p in (True, False):
            args = (x, y, np.bool_(p), i)
            np.testing.assert_allclose(np.asarray(exe(*args)), np.asarray(jax.jit(f)(*args)),
                                       rtol=2e-6, atol=0, err_msg=f"{f.__name__} p={p}")
