"""vk-squeezed-interior-pad: a pad with interior padding of a computed 1xN row (shlo-expand-
reduce-window's form of a window's base dilation) failed to compile on vulkan, also without
shlo's passes ('unresolved materialization' of memref<16xf32> to memref<1x16xf32>; fuzz seed
61 program 407); of a computed AxBx1 value it was silently wrong (groups of 4 elements side by
side); against numpy at 65536 elements and more, on cpu (with the Vulkan rewrites) and
vulkan."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from conftest import compile_with_vulkan_rules, numpy_pad

N = 65536
PROGRAM = f"""
func.func @window_of_clamp(%x: tensor<1x{N}xf32>, %lo: tensor<1x{N}xf32>,
                           %hi: tensor<1x{N}xf32>) -> tensor<1x{2 * N - 2}xf32> {{
  %c = stablehlo.clamp %lo, %x, %hi : tensor<1x{N}xf32>
  %i = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%c, %i) <{{base_dilations = array<i64: 1, 2>,
      padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>,
      window_strides = array<i64: 2, 1>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.minimum %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }}) : (tensor<1x{N}xf32>, tensor<f32>) -> tensor<1x{2 * N - 2}xf32>
  return %r : tensor<1x{2 * N - 2}xf32>
}}
func.func @pad_i32(%x: tensor<1x1x{N // 2}xi32>, %v: tensor<i32>) -> tensor<1x1x{3 * (N // 2) - 4}xi32> {{
  %n = stablehlo.negate %x : tensor<1x1x{N // 2}xi32>
  %r = stablehlo.pad %n, %v, low = [0, 0, -3], high = [0, 0, 1], interior = [0, 0, 2]
      : (tensor<1x1x{N // 2}xi32>, tensor<i32>) -> tensor<1x1x{3 * (N // 2) - 4}xi32>
  return %r : tensor<1x1x{3 * (N // 2) - 4}xi32>
}}
func.func @pad_rows(%x: tensor<1x{N // 2}xf32>, %v: tensor<f32>) -> tensor<3x{N}xf32> {{
  %n = stablehlo.exponential %x : tensor<1x{N // 2}xf32>
  %r = stablehlo.pad %n, %v, low = [1, 0], high = [1, 1], interior = [0, 1]
      : (tensor<1x{N // 2}xf32>, tensor<f32>) -> tensor<3x{N}xf32>
  return %r : tensor<3x{N}xf32>
}}
func.func @pad_moved_row(%x: tensor<1x{N // 2}xf32>, %v: tensor<f32>) -> tensor<1x{N + 1}xf32> {{
  %n = stablehlo.exponential %x : tensor<1x{N // 2}xf32>
  %r = stablehlo.pad %n, %v, low = [1, 2], high = [-1, 0], interior = [0, 1]
      : (tensor<1x{N // 2}xf32>, tensor<f32>) -> tensor<1x{N + 1}xf32>
  return %r : tensor<1x{N + 1}xf32>
}}
func.func @pad_columns_i32(%x: tensor<256x128x1xi32>, %v: tensor<i32>) -> tensor<256x255x1xi32> {{
  %n = stablehlo.multiply %x, %x : tensor<256x128x1xi32>
  %r = stablehlo.pad %n, %v, low = [0, 0, 0], high = [0, 0, 0], interior = [0, 1, 0]
      : (tensor<256x128x1xi32>, tensor<i32>) -> tensor<256x255x1xi32>
  return %r : tensor<256x255x1xi32>
}}
func.func @pad_unit_dims_f32(%x: tensor<2x64x1x1xf32>, %v: tensor<f32>) -> tensor<3x191x2x1xf32> {{
  %n = stablehlo.negate %x : tensor<2x64x1x1xf32>
  %r = stablehlo.pad %n, %v, low = [1, -1, 1, 0], high = [0, 2, 0, 0], interior = [0, 2, 0, 0]
      : (tensor<2x64x1x1xf32>, tensor<f32>) -> tensor<3x191x2x1xf32>
  return %r : tensor<3x191x2x1xf32>
}}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_interior_pads_of_rows(ctx, target):
    exe = compile_with_vulkan_rules(ctx, PROGRAM, target)
    rng = np.random.default_rng(407)
    x, lo, hi = (rng.standard_normal((1, N)).astype(np.float32) for _ in range(3))
    got = exe.function("window_of_clamp")(x, lo, hi)
    dilated = numpy_pad(np.clip(x, lo, hi), np.float32(np.inf), [0, 0], [0, 1], [0, 1])
    want = sliding_window_view(dilated, (1, 3))[::2, :, 0].min(axis=-1)
    np.testing.assert_array_equal(got, want)
    i = rng.integers(-2 ** 31, 2 ** 31, (1, 1, N // 2), dtype=np.int64).astype(np.int32)
    got = exe.function("pad_i32")(i, np.int32(7))
    np.testing.assert_array_equal(got, numpy_pad(-i, np.int32(7), [0, 0, -3], [0, 0, 1], [0, 0, 2]))
    r = rng.standard_normal((1, N // 2)).astype(np.float32)
    got = exe.function("pad_rows")(r, np.float32(-2.5))
    np.testing.assert_allclose(got, numpy_pad(np.exp(r), np.float32(-2.5), [1, 0], [1, 1], [0, 1]),
                               rtol=2e-6, atol=0)
    got = exe.function("pad_moved_row")(r, np.float32(-2.5))       # the row padded out of view
    np.testing.assert_array_equal(got, numpy_pad(np.exp(r), np.float32(-2.5), [1, 2], [-1, 0], [0, 1]))
    c = rng.integers(-40000, 40000, (256, 128, 1)).astype(np.int32)
    got = exe.function("pad_columns_i32")(c, np.int32(-7))
    np.testing.assert_array_equal(got, numpy_pad(c * c, np.int32(-7), [0, 0, 0], [0, 0, 0], [0, 1, 0]))
    u = rng.standard_normal((2, 64, 1, 1)).astype(np.float32)
    got = exe.function("pad_unit_dims_f32")(u, np.float32(0.5))
    np.testing.assert_array_equal(got, numpy_pad(-u, np.float32(0.5), [1, -1, 1, 0], [0, 2, 0, 0],
                                                 [0, 2, 0, 0]))
