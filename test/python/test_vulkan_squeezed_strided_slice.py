"""vk-squeezed-strided-slice: strided slices of values with size-1 dimensions. Of a 1xN row
(x[:, ::2] + x[:, 1::2], and the window slices of an expanded select_and_scatter) they failed
to compile on vulkan, of an Nx64x1 value they were silently wrong (4 neighbours read for every
4 strided elements), also without shlo's passes; against numpy at 65536 elements on cpu and
vulkan."""
import numpy as np
import pytest

N = 65536
PROGRAM = f"""
func.func @pairs_f32(%x: tensor<1x{N}xf32>) -> tensor<1x{N // 2}xf32> {{
  %a = stablehlo.slice %x [0:1, 0:{N - 1}:2] : (tensor<1x{N}xf32>) -> tensor<1x{N // 2}xf32>
  %b = stablehlo.slice %x [0:1, 1:{N}:2] : (tensor<1x{N}xf32>) -> tensor<1x{N // 2}xf32>
  %s = stablehlo.subtract %a, %b : tensor<1x{N // 2}xf32>
  return %s : tensor<1x{N // 2}xf32>
}}
func.func @thirds_i32(%x: tensor<1x1x48xi32>) -> tensor<1x1x16xi32> {{
  %a = stablehlo.slice %x [0:1, 0:1, 1:48:3] : (tensor<1x1x48xi32>) -> tensor<1x1x16xi32>
  %b = stablehlo.slice %x [0:1, 0:1, 0:46:3] : (tensor<1x1x48xi32>) -> tensor<1x1x16xi32>
  %m = stablehlo.multiply %a, %b : tensor<1x1x16xi32>
  return %m : tensor<1x1x16xi32>
}}
func.func @column_pairs_f32(%x: tensor<1024x64x1xf32>) -> tensor<1024x32x1xf32> {{
  %a = stablehlo.slice %x [0:1024, 0:63:2, 0:1] : (tensor<1024x64x1xf32>) -> tensor<1024x32x1xf32>
  %b = stablehlo.slice %x [0:1024, 1:64:2, 0:1] : (tensor<1024x64x1xf32>) -> tensor<1024x32x1xf32>
  %s = stablehlo.subtract %a, %b : tensor<1024x32x1xf32>
  return %s : tensor<1024x32x1xf32>
}}
func.func @odd_columns_i32(%x: tensor<256x256x1x1xi32>) -> tensor<256x128x1x1xi32> {{
  %a = stablehlo.slice %x [0:256, 1:256:2, 0:1, 0:1] : (tensor<256x256x1x1xi32>) -> tensor<256x128x1x1xi32>
  %m = stablehlo.multiply %a, %a : tensor<256x128x1x1xi32>
  return %m : tensor<256x128x1x1xi32>
}}
"""
SELECT_AND_SCATTER = """
func.func @select_and_scatter_@N@(%x: tensor<1x@N@xf32>, %s: tensor<1x@H@xf32>) -> tensor<1x@N@xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %z) <{padding = dense<0> : tensor<2x2xi64>,
      window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.compare LE, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %c = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %c : tensor<f32>
  }) : (tensor<1x@N@xf32>, tensor<1x@H@xf32>, tensor<f32>) -> tensor<1x@N@xf32>
  return %r : tensor<1x@N@xf32>
}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_squeezed_strided_slices(target):
    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, N)).astype(np.float32)
    x[0, 11:101:2] = x[0, 10:100:2]     # ties: the first of a window wins (select is <=)
    i = rng.integers(-30000, 30000, (1, 1, 48)).astype(np.int32)
    c = rng.standard_normal((1024, 64, 1)).astype(np.float32)
    o = rng.integers(-30000, 30000, (256, 256, 1, 1)).astype(np.int32)
    s = rng.standard_normal((1, N // 2)).astype(np.float32)
    program = PROGRAM + "".join(SELECT_AND_SCATTER.replace("@N@", str(n)).replace(
        "@H@", str(n // 2)) for n in (16, N))
    exe = shlo.compile(program, target=target, cache=False)
    np.testing.assert_array_equal(exe.function("pairs_f32")(x), x[:, ::2] - x[:, 1::2])
    np.testing.assert_array_equal(exe.function("thirds_i32")(i), i[:, :, 1::3] * i[:, :, ::3])
    np.testing.assert_array_equal(exe.function("column_pairs_f32")(c), c[:, ::2] - c[:, 1::2])
    np.testing.assert_array_equal(exe.function("odd_columns_i32")(o), o[:, 1::2] * o[:, 1::2])
    for n in (16, N):
        want = np.zeros((1, n), np.float32)
        second = x[0, 1:n:2] < x[0, :n:2]
        want[0, 2 * np.arange(n // 2) + second] = s[0, :n // 2]
        got = exe.function(f"select_and_scatter_{n}")(x[:, :n], s[:, :n // 2])
        np.testing.assert_array_equal(got, want)
