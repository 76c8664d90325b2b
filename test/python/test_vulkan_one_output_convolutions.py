"""vk-few-output-convolution's one-output form: a convolution with one output position whose
kernel is laid out [o, 0, i, 1] crashed IREE's SPIR-V compile (SIGSEGV, killing the calling
process), also without shlo's passes (seed 68 program 455: 8x7x3x6 by 1x3x7x4, stride 3).
It is a dot_general over the window. Against numpy at 344K input elements, cpu and vulkan."""
import numpy as np
import pytest

import shlo

TEXT = """func.func @main(%x: tensor<4096x7x3x4xf32>, %k: tensor<16x3x7x4xf32>) -> tensor<4096x1x1x16xf32> {
  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, 0, i, 1]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4096x7x3x4xf32>, tensor<16x3x7x4xf32>) -> tensor<4096x1x1x16xf32>
  return %r : tensor<4096x1x1x16xf32>
}
func.func @strided(%x: tensor<8x7x3x6xf32>, %k: tensor<1x3x7x4xf32>) -> tensor<8x1x1x1xf32> {
  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, 0, i, 1]->[b, 0, 1, f], window = {stride = [3, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x7x3x6xf32>, tensor<1x3x7x4xf32>) -> tensor<8x1x1x1xf32>
  return %r : tensor<8x1x1x1xf32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_one_output_convolutions(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(TEXT, target=target, cache=False)
    rng = np.random.default_rng(455)
    x = rng.integers(-4, 5, (4096, 7, 3, 4)).astype(np.float32)      # exact sums
    k = rng.integers(-4, 5, (16, 3, 7, 4)).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(exe.function("main")(x, k)).reshape(4096, 16),
                                  np.einsum("bfhw,ohfw->bo", x, k))
    x = rng.integers(-4, 5, (8, 7, 3, 6)).astype(np.float32)
    k = rng.integers(-4, 5, (1, 3, 7, 4)).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(exe.function("strided")(x, k)).reshape(8),
                                  np.einsum("bfhw,ohfw->b", x[:, :, :, :4], k))
