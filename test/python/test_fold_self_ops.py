"""shlo-fold-self-ops: integer x - x, x ^ x and comparisons of x with x are the constants they
are. On static shapes IREE 3.13 folded them after shlo's expansions and hoisted what shlo built
from them into a module initializer it could not compile (a bf16 pad value on the host, fuzz
seed 165 program 470). jax programs at real sizes against numpy, on cpu and vulkan.
docs/iree_gaps.md#shlo-fold-self-ops"""
import jax.numpy as jnp
import numpy as np
import pytest

import shlo.jax


def _self_ops(x, u, y):
    """Self-ops of i32 `x` and ui32 `u`, and a bf16 `y` padded by converts of x - x and x ^ x."""
    zero = (x - x)[0].astype(jnp.bfloat16)
    other = (u ^ u)[5].astype(jnp.bfloat16) + 1
    padded = jnp.pad(y, ((2, 1), (2, 0)), constant_values=zero)
    padded_by_xor = jnp.pad(y, ((0, 3), (1, 1)), constant_values=other)
    return x - x, u ^ u, x >= x, u != u, x < x, padded, padded_by_xor


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_self_ops_of_integers(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    x = rng.integers(-2**31, 2**31, 65536, dtype=np.int64).astype(np.int32)
    x[:2] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max]
    u = rng.integers(0, 2**32, 65536, dtype=np.uint64).astype(np.uint32)
    y = rng.standard_normal((333, 48)).astype(jnp.bfloat16)
    got = [np.asarray(r) for r in shlo.jax.jit(_self_ops, target=target)(x, u, y)]
    want = [x - x, u ^ u, x >= x, u != u, x < x,
            np.pad(y, ((2, 1), (2, 0)), constant_values=0),
            np.pad(y, ((0, 3), (1, 1)), constant_values=1)]
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, (k, g.dtype, g.shape)
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")
