"""shlo-legalize-dot-algorithm: dot_general with an algorithm runs, with the algorithm's
operand precision and accumulation, against numpy: tf32 operands (rounded to 10 mantissa
bits, nearest even) and bf16 operands summed in f32, on CPU and Vulkan. One module per
target."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

ALGORITHM = ("algorithm = <lhs_precision_type = {p}, rhs_precision_type = {p}, "
             "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
             "num_primitive_operations = 1, allow_imprecise_accumulation = false>")
TEXT = f"""
func.func @tf32(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], {ALGORITHM.format(p="tf32")}
    : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}}
func.func @bf16(%a: tensor<8x64xbf16>, %b: tensor<64x4xbf16>) -> tensor<8x4xbf16> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], {ALGORITHM.format(p="bf16")}
    : (tensor<8x64xbf16>, tensor<64x4xbf16>) -> tensor<8x4xbf16>
  return %0 : tensor<8x4xbf16>
}}
"""
RNG = np.random.default_rng(3)


def tf32(x: np.ndarray) -> np.ndarray:
    """Round f32 to 10 mantissa bits, to nearest even (finite inputs)."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    keep = 13
    bias = ((bits >> keep) & 1) + (1 << (keep - 1)) - 1
    return ((bits + bias) >> keep << keep).astype(np.uint32).view(np.float32)


def check(exe):
    # tf32: values whose low mantissa bits matter, so that rounding shows in the result
    a = (1 + RNG.random((8, 16)) * 2 ** -9).astype(np.float32)
    b = RNG.standard_normal((16, 4)).astype(np.float32)
    want = tf32(a).astype(np.float64) @ tf32(b).astype(np.float64)
    got = exe.function("tf32")(a, b)
    np.testing.assert_allclose(got, want, rtol=2e-6)
    assert not np.allclose(want, a.astype(np.float64) @ b, rtol=1e-7)   # rounding is visible
    # bf16 with f32 accumulation: one rounding to bf16 at the end
    x = RNG.standard_normal((8, 64)).astype(ml_dtypes.bfloat16)
    y = RNG.standard_normal((64, 4)).astype(ml_dtypes.bfloat16)
    exact = (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)
    got = exe.function("bf16")(x, y).astype(np.float32)
    np.testing.assert_allclose(got, exact.astype(ml_dtypes.bfloat16).astype(np.float32),
                               rtol=2 ** -7, atol=1e-6)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_algorithm_precision_and_accumulation(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check(shlo.compile(shlo.parse_module(TEXT, context=ctx), target=target))
