"""shlo-barrier-loop-captures: a gather a while loop reads from outside, subtracted from a
matrix-vector product inside it (the step of jax's LU solve), stopped IREE 3.13's CPU code
generator ("'arith.subf' op requires the same type"); behind a barrier it compiles. numpy's
forward substitution is the oracle."""
import jax
import numpy as np
import pytest

import shlo
from shlo.passes.dispatch.barrier_loop_captures import BarrierLoopCaptures

from conftest import vulkan_or_skip

TEXT = """
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x1xf32>, %idx: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %g = "stablehlo.gather"(%b, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x1xf32>, tensor<4x1xi32>) -> tensor<4x1xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c4 = stablehlo.constant dense<4> : tensor<i64>
  %z = stablehlo.constant dense<0.0> : tensor<4x1xf32>
  %r:2 = stablehlo.while(%i = %c0, %x = %z) : tensor<i64>, tensor<4x1xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i64>
    %row = stablehlo.dynamic_slice %a, %i, %c0, sizes = [1, 4] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x4xf32>
    %d = stablehlo.dot_general %row, %x, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x1xf32>) -> tensor<1x1xf32>
    %y = stablehlo.dynamic_slice %g, %i, %c0, sizes = [1, 1] : (tensor<4x1xf32>, tensor<i64>, tensor<i64>) -> tensor<1x1xf32>
    %s = stablehlo.subtract %y, %d : tensor<1x1xf32>
    %u = stablehlo.dynamic_update_slice %x, %s, %i, %c0 : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<i64>, tensor<i64>) -> tensor<4x1xf32>
    stablehlo.return %n, %u : tensor<i64>, tensor<4x1xf32>
  }
  return %r#1 : tensor<4x1xf32>
}"""


def test_a_loop_reading_a_gather_compiles_and_substitutes_forward(ctx):
    rng = np.random.default_rng(0)
    a = np.tril(rng.standard_normal((4, 4)), -1).astype(np.float32)     # unit lower triangle
    b = rng.standard_normal((4, 1)).astype(np.float32)
    perm = np.array([[2], [0], [3], [1]], np.int32)
    got = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu", cache=False)(a, b, perm)
    rhs, want = b[perm[:, 0]], np.zeros((4, 1))
    for i in range(4):
        want[i] = rhs[i] - a[i] @ want
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_jax_custom_linear_solve_with_an_lu_solve_compiles(ctx):
    """The program the jax harness sweep found failing: lax.custom_linear_solve whose solve is
    jax.scipy.linalg.lu_solve."""
    rng = np.random.default_rng(1)
    m = (rng.standard_normal((4, 4)) + 4 * np.eye(4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)

    def solve(matvec, x):
        return jax.scipy.linalg.lu_solve(jax.scipy.linalg.lu_factor(m), x)

    fn = jax.jit(lambda b: jax.lax.custom_linear_solve(lambda x: m @ x, b, solve, solve))
    got = shlo.compile(shlo.parse_module(fn.lower(b).as_text(), context=ctx), target="cpu")(b)
    np.testing.assert_allclose(got, np.linalg.solve(m.astype(np.float64), b), rtol=1e-4,
                               atol=1e-5)


UNSIGNED = """
func.func @main(%x: tensor<8xui32>) -> tensor<ui32> {
  %c3 = stablehlo.constant dense<3> : tensor<8xui32>
  %y = stablehlo.multiply %x, %c3 : tensor<8xui32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c8 = stablehlo.constant dense<8> : tensor<i64>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i64>, tensor<ui32>
  cond {
    %p = stablehlo.compare LT, %i, %c8, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %e = stablehlo.dynamic_slice %y, %i, sizes = [1] : (tensor<8xui32>, tensor<i64>) -> tensor<1xui32>
    %s = stablehlo.reshape %e : (tensor<1xui32>) -> tensor<ui32>
    %a = stablehlo.xor %acc, %s : tensor<ui32>
    %next = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %next, %a : tensor<i64>, tensor<ui32>
  }
  return %r#1 : tensor<ui32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_an_unsigned_capture_compiles(ctx, target):
    """The fence of a ui32 capture goes through as i32 (IREE 3.13 cannot convert a compute
    barrier of unsigned type: "failed to legalize operation")."""
    if target == "vulkan":
        vulkan_or_skip()
    fenced = shlo.parse_module(UNSIGNED, context=ctx)
    BarrierLoopCaptures().apply(fenced)
    assert "iree_tensor_ext.compute_barrier.start" in str(fenced)
    x = np.arange(4_000_000_000, 4_000_000_008, dtype=np.uint32)
    got = shlo.compile(shlo.parse_module(UNSIGNED, context=ctx), target=target, cache=False)(x)
    assert np.asarray(got) == np.bitwise_xor.reduce(x * np.uint32(3))
