"""shlo-reduce-before-broadcast: reductions over dimensions their operand does not vary along
(IREE 3.13's cpu compile failed on some: a sum of a broadcast outer product, a sum of a product
of broadcasts over a new dimension) compile and agree with numpy, on cpu and vulkan: float sums
within rounding, integer sums (wrapping) and maxima exactly."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo


def _program(a, b, i, c):
    new = jnp.broadcast_to(a[:, :, None, None, None], (64, 1, 7, 50, 30))
    return (jnp.sum(new * b),                                      # new dimension of 7
            jnp.sum(jnp.broadcast_to(jnp.outer(a[:, 0], b[0])[:, None], (64, 3, 30))),
            jnp.sum(jnp.broadcast_to(i[:, None], (1000, 3000)), axis=1, dtype=jnp.int32),
            jnp.max(jnp.broadcast_to(c[None, :, None], (5, 4096, 9)), axis=(0, 2)),
            jnp.mean(jnp.broadcast_to(c, (7, 4096))),
            jnp.sum(jnp.broadcast_to(i.astype(jnp.int8)[:, None], (1000, 300)), axis=1,
                    dtype=jnp.int8))                                # 300 copies: 44 mod 256


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_reductions_of_broadcasts(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(567)
    a = rng.standard_normal((64, 1)).astype(np.float32)
    b = rng.standard_normal((50, 30)).astype(np.float32)
    i = rng.integers(-2 ** 31, 2 ** 31, 1000).astype(np.int32)       # sums that wrap
    c = rng.standard_normal(4096).astype(np.float32)
    text = jax.jit(_program).lower(a, b, i, c).as_text()
    got = [np.asarray(r) for r in shlo.compile(text, target=target, cache=False)(a, b, i, c)]
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_allclose(got[0], 7 * a64.sum() * b64.sum(), rtol=1e-4)
    np.testing.assert_allclose(got[1], 3 * a64[:, 0].sum() * b64[0].sum(), rtol=1e-4)
    np.testing.assert_array_equal(got[2], (i.astype(np.int64) * 3000).astype(np.int32))
    np.testing.assert_array_equal(got[3], c)
    np.testing.assert_allclose(got[4], c.astype(np.float64).mean(), rtol=1e-4, atol=1e-6)
    np.testing.assert_array_equal(got[5], (i.astype(np.int8).astype(np.int64) * 300)
                                  .astype(np.int8))

