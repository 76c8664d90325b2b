"""Programs IREE 3.13's input conversion failed to compile (it applies StableHLO
canonicalizations inside the dialect conversion, on ops whose operands it has converted),
compiled through shlo's pipeline and checked against numpy on cpu and vulkan at real sizes:
jax's `abs(x[idx][None]), abs(x[idx])` (shlo-reshape-unit-broadcasts) and a one-product
dot_general of bf16 into f32 (shlo-accumulate-in-f32).
docs/iree_gaps.md#shlo-reshape-unit-broadcasts"""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import shlo.jax


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_gathered_values_broadcast_and_read(target):
    """`y = x[idx]` of a 1M table, 65536 indices, read as abs(y[None]) and abs(y): failed to
    compile on both targets ('failed to legalize unresolved materialization'; fuzz seed 165
    program 132, complex64 values)."""
    _target(target)

    def f(x, idx):
        y = x[idx]
        return jnp.abs(y[None, :]), jnp.abs(y)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1 << 20).astype(np.float32)
    idx = rng.integers(0, 1 << 20, 65536).astype(np.int32)
    a, b = (np.asarray(r) for r in shlo.jax.jit(f, target=target)(x, idx))
    want = np.abs(x[idx])
    np.testing.assert_allclose(a, want[None], rtol=1e-6)
    np.testing.assert_allclose(b, want, rtol=1e-6)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_one_product_of_bf16_into_f32(target):
    """A scalar times a column, bf16 operands into an f32 result (contracting nothing), the
    column's reshape also read by a maximum: IREE made it a multiply of [n, 1] by [n]
    ('failed to legalize operation stablehlo.multiply'; fuzz seed 165 program 166). 65536
    rows; bf16 products are exact in f32."""
    _target(target)

    def f(s, x):
        column = x.reshape(-1, 1)
        p = jax.lax.dot_general(s, column, (((), ()), ((), ())),
                                preferred_element_type=jnp.float32)
        return jnp.maximum(column.astype(jnp.float32), p)
    rng = np.random.default_rng(1)
    s = np.asarray(rng.standard_normal(), ml_dtypes.bfloat16)
    x = rng.standard_normal(65536).astype(ml_dtypes.bfloat16)
    got = np.asarray(shlo.jax.jit(f, target=target)(s, x))
    xs = x.astype(np.float32).reshape(-1, 1)
    np.testing.assert_array_equal(got, np.maximum(xs, np.float32(s) * xs))
