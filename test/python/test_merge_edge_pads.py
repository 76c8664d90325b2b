"""shlo-merge-edge-pads: IREE 3.13 folded a pad of a pad by the same value, one of them with
interior padding, into one wrong pad, silently, on cpu and vulkan (shlo-fuzz seed 64 program
1479); the pair as one pad (or behind a fence), against numpy at real sizes. A pad of a pad of
a computed value by another value, or of a one-element window IREE lowers as a pad, failed to
compile (seeds 102 program 363, 147 program 198): fenced."""
import numpy as np
import pytest

import shlo

from conftest import numpy_pad

N = 65536
PROGRAM = f"""
func.func @upsampled_then_padded(%x: tensor<{N}xf32>) -> tensor<{2 * N + 6}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [1], high = [0], interior = [1] : (tensor<{N}xf32>, tensor<f32>) -> tensor<{2 * N}xf32>
  %1 = stablehlo.pad %0, %z, low = [-1], high = [7], interior = [0] : (tensor<{2 * N}xf32>, tensor<f32>) -> tensor<{2 * N + 6}xf32>
  return %1 : tensor<{2 * N + 6}xf32>
}}
func.func @rows(%x: tensor<256x256xi32>, %v: tensor<i32>) -> tensor<770x260xi32> {{
  %0 = stablehlo.pad %x, %v, low = [0, 0], high = [2, 0], interior = [2, 0] : (tensor<256x256xi32>, tensor<i32>) -> tensor<768x256xi32>
  %1 = stablehlo.pad %0, %v, low = [1, 2], high = [1, 2], interior = [0, 0] : (tensor<768x256xi32>, tensor<i32>) -> tensor<770x260xi32>
  return %1 : tensor<770x260xi32>
}}
func.func @cut_then_padded(%x: tensor<{N}xf32>) -> tensor<{3 * N}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [-1], high = [0], interior = [2] : (tensor<{N}xf32>, tensor<f32>) -> tensor<{3 * N - 3}xf32>
  %1 = stablehlo.pad %0, %z, low = [3], high = [0], interior = [0] : (tensor<{3 * N - 3}xf32>, tensor<f32>) -> tensor<{3 * N}xf32>
  return %1 : tensor<{3 * N}xf32>
}}
func.func @padded_then_upsampled(%x: tensor<{N}xf32>) -> tensor<{2 * N + 7}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [3], high = [1], interior = [0] : (tensor<{N}xf32>, tensor<f32>) -> tensor<{N + 4}xf32>
  %1 = stablehlo.pad %0, %z, low = [0], high = [0], interior = [1] : (tensor<{N + 4}xf32>, tensor<f32>) -> tensor<{2 * N + 7}xf32>
  return %1 : tensor<{2 * N + 7}xf32>
}}
func.func @other_values(%x: tensor<{N}xi32>) -> (tensor<{N + 15}xf32>, tensor<{2 * N + 6}xf32>) {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.constant dense<-2.0> : tensor<f32>
  %c = stablehlo.convert %x : (tensor<{N}xi32>) -> tensor<{N}xf32>
  %0 = stablehlo.pad %c, %z, low = [7], high = [7], interior = [0] : (tensor<{N}xf32>, tensor<f32>) -> tensor<{N + 14}xf32>
  %1 = stablehlo.pad %0, %m, low = [1], high = [0], interior = [0] : (tensor<{N + 14}xf32>, tensor<f32>) -> tensor<{N + 15}xf32>
  %e = stablehlo.negate %c : tensor<{N}xf32>
  %2 = stablehlo.pad %e, %z, low = [0], high = [2], interior = [0] : (tensor<{N}xf32>, tensor<f32>) -> tensor<{N + 2}xf32>
  %3 = stablehlo.pad %2, %m, low = [1], high = [2], interior = [1] : (tensor<{N + 2}xf32>, tensor<f32>) -> tensor<{2 * N + 6}xf32>
  return %1, %3 : tensor<{N + 15}xf32>, tensor<{2 * N + 6}xf32>
}}
func.func @pad_of_window(%x: tensor<{N}xf32>, %y: tensor<{N}xf32>) -> tensor<{N + 2}xf32> {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.minimum %x, %y : tensor<{N}xf32>
  %w = "stablehlo.reduce_window"(%m, %ninf) <{{window_dimensions = array<i64: 1>, window_dilations = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>}}> ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) : (tensor<{N}xf32>, tensor<f32>) -> tensor<{N + 1}xf32>
  %r = stablehlo.pad %w, %zero, low = [0], high = [1], interior = [0] : (tensor<{N + 1}xf32>, tensor<f32>) -> tensor<{N + 2}xf32>
  return %r : tensor<{N + 2}xf32>
}}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_pads_of_interior_pads(ctx, target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(PROGRAM, context=ctx), target=target, cache=False)
    rng = np.random.default_rng(1479)
    x = rng.standard_normal(N).astype(np.float32)
    zero = np.float32(0)
    np.testing.assert_array_equal(exe.function("upsampled_then_padded")(x), numpy_pad(
        numpy_pad(x, zero, [1], [0], [1]), zero, [-1], [7], [0]))
    np.testing.assert_array_equal(exe.function("cut_then_padded")(x), numpy_pad(
        numpy_pad(x, zero, [-1], [0], [2]), zero, [3], [0], [0]))
    np.testing.assert_array_equal(exe.function("padded_then_upsampled")(x), numpy_pad(
        numpy_pad(x, zero, [3], [1], [0]), zero, [0], [0], [1]))
    i = rng.integers(-2 ** 24, 2 ** 24, N).astype(np.int32)     # exact in f32
    f, m = i.astype(np.float32), np.float32(-2)
    edges, interior = exe.function("other_values")(i)
    np.testing.assert_array_equal(edges, numpy_pad(numpy_pad(f, zero, [7], [7], [0]),
                                                   m, [1], [0], [0]))
    np.testing.assert_array_equal(interior, numpy_pad(numpy_pad(-f, zero, [0], [2], [0]),
                                                      m, [1], [2], [1]))
    # a pad by 0 of a one-element max window padded by -inf, which IREE lowers as a pad by
    # -inf (fuzz seed 102 program 363)
    y = rng.standard_normal(N).astype(np.float32)
    np.testing.assert_array_equal(exe.function("pad_of_window")(x, y), np.concatenate(
        [np.minimum(x, y), [-np.inf, 0]]).astype(np.float32))
    r = rng.integers(-2 ** 31, 2 ** 31, (256, 256)).astype(np.int32)
    v = np.int32(-7)
    np.testing.assert_array_equal(exe.function("rows")(r, v), numpy_pad(
        numpy_pad(r, v, [0, 0], [2, 0], [2, 0]), v, [1, 2], [1, 2], [0, 0]))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_pad_of_interior_pad_reproducer(target):
    """Seed 64 program 1479: a convolution of a pad of an interior pad of f32[2] gave 1 for 0
    (cpu and vulkan alike)."""
    import os

    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import InProcess
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    here = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions", "pad_of_interior_pad")
    assert fuzz.replay(here, target, InProcess()) is None
