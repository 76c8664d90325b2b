"""shlo-legalize-integer-ops: boolean add is OR (numpy's logical_or) and unsigned reverse keeps
every bit (numpy's flip), on IREE's CPU and Vulkan backends. One module per target."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import compile_functions

TEXT = """func.func @bool_add(%a: tensor<2x4xi1>, %b: tensor<2x4xi1>) -> tensor<2x4xi1> {
  %0 = stablehlo.add %a, %b : tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}
func.func @reverse_ui32(%x: tensor<3x4xui32>) -> tensor<3x4xui32> {
  %0 = stablehlo.reverse %x, dims = [0, 1] : tensor<3x4xui32>
  return %0 : tensor<3x4xui32>
}
func.func @reverse_ui8(%x: tensor<5xui8>) -> tensor<5xui8> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<5xui8>
  return %0 : tensor<5xui8>
}"""
RNG = np.random.default_rng(3)
A = np.array([[0, 0, 1, 1], [1, 0, 1, 0]], bool)
B = np.array([[0, 1, 0, 1], [1, 1, 0, 0]], bool)
U32 = RNG.integers(0, 2**32, (3, 4), dtype=np.uint64).astype(np.uint32)
U8 = np.array([0, 1, 127, 128, 255], np.uint8)


def check(exe):
    np.testing.assert_array_equal(exe.function("bool_add")(A, B), np.logical_or(A, B))
    np.testing.assert_array_equal(exe.function("reverse_ui32")(U32), U32[::-1, ::-1])
    np.testing.assert_array_equal(exe.function("reverse_ui8")(U8), U8[::-1])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_integer_ops(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check(compile_functions(ctx, [(TEXT, None)], target))
