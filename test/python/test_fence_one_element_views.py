"""shlo-fence-scalar-scatter-updates on one-element views of a lower-rank slice, whatever
reads them (IREE 3.13 alone fails to compile each function here: 'expected rank to be smaller
or equal to the other rank'): one module of such programs compiles and is exact against numpy
on cpu and vulkan, the element sliced at run time from 65536."""
import numpy as np
import pytest

import shlo

N = 65536
# Each function views x[i] (a dynamic_slice or jax's slice-reshape-broadcast) as a unit shape
# of rank 2 to 4 and reads it with another op; several also return the view.
MODULE = f"""
func.func @padded(%x: tensor<{N}xf32>, %i: tensor<i32>) -> (tensor<1x{N}xf32>, tensor<1x1xf32>) {{
  %s = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<{N}xf32>, tensor<i32>) -> tensor<1xf32>
  %v = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<1x1xf32>
  %z = stablehlo.constant dense<-1.0> : tensor<f32>
  %p = stablehlo.pad %v, %z, low = [0, 7], high = [0, {N - 8}], interior = [0, 0] : (tensor<1x1xf32>, tensor<f32>) -> tensor<1x{N}xf32>
  return %p, %v : tensor<1x{N}xf32>, tensor<1x1xf32>
}}
func.func @window(%x: tensor<{N}xf64>, %i: tensor<i32>) -> tensor<1x1x1xf64> {{
  %s = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<{N}xf64>, tensor<i32>) -> tensor<1xf64>
  %v = stablehlo.reshape %s : (tensor<1xf64>) -> tensor<1x1x1xf64>
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %w = "stablehlo.reduce_window"(%v, %z) <{{padding = dense<[[2, 0], [0, 1], [1, 1]]> : tensor<3x2xi64>, window_dilations = array<i64: 2, 1, 1>, window_dimensions = array<i64: 2, 2, 3>}}> ({{
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %t = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %t : tensor<f64>
  }}) : (tensor<1x1x1xf64>, tensor<f64>) -> tensor<1x1x1xf64>
  return %w : tensor<1x1x1xf64>
}}
func.func @gathered(%x: tensor<{N}xi16>, %i: tensor<i32>) -> (tensor<1x1x1x1xi16>, tensor<1x1x1x1xi16>) {{
  %s = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<{N}xi16>, tensor<i32>) -> tensor<1xi16>
  %v = stablehlo.reshape %s : (tensor<1xi16>) -> tensor<1x1x1x1xi16>
  %k = stablehlo.reshape %i : (tensor<i32>) -> tensor<1x1xi32>
  %g = "stablehlo.gather"(%v, %k) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3], collapsed_slice_dims = [3], start_index_map = [3], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>}}> : (tensor<1x1x1x1xi16>, tensor<1x1xi32>) -> tensor<1x1x1x1xi16>
  return %g, %v : tensor<1x1x1x1xi16>, tensor<1x1x1x1xi16>
}}
func.func @scattered_into(%x: tensor<{N}xi32>, %i: tensor<i32>, %y: tensor<i32>) -> tensor<1x1xi32> {{
  %s = stablehlo.slice %x [40000:40001] : (tensor<{N}xi32>) -> tensor<1xi32>
  %e = stablehlo.reshape %s : (tensor<1xi32>) -> tensor<i32>
  %v = stablehlo.broadcast_in_dim %e, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
  %k = stablehlo.constant dense<0> : tensor<1x1xi32>
  %u = stablehlo.reshape %y : (tensor<i32>) -> tensor<1xi32>
  %r = "stablehlo.scatter"(%v, %k, %u) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}}> ({{
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }}) : (tensor<1x1xi32>, tensor<1x1xi32>, tensor<1xi32>) -> tensor<1x1xi32>
  return %r : tensor<1x1xi32>
}}
func.func @joined(%x: tensor<{N}xui8>, %i: tensor<i32>, %m: tensor<1x{N - 1}xui8>) -> (tensor<1x{N}xui8>, tensor<1x1xui8>) {{
  %s = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<{N}xui8>, tensor<i32>) -> tensor<1xui8>
  %v = stablehlo.reshape %s : (tensor<1xui8>) -> tensor<1x1xui8>
  %c = stablehlo.concatenate %m, %v, dim = 1 : (tensor<1x{N - 1}xui8>, tensor<1x1xui8>) -> tensor<1x{N}xui8>
  return %c, %v : tensor<1x{N}xui8>, tensor<1x1xui8>
}}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_one_element_views_read_by_other_ops(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    exe = shlo.compile(MODULE, target=target, cache=False)
    i = np.int32(51234)

    x = rng.standard_normal(N).astype(np.float32)
    want = np.full((1, N), -1.0, np.float32)
    want[0, 7] = x[i]
    p, v = exe.function("padded")(x, i)
    np.testing.assert_array_equal(p, want)
    np.testing.assert_array_equal(v, x[i].reshape(1, 1))

    x64 = rng.standard_normal(N)
    # window rows {0, 2} of the 2-padded dim 0, columns {0, 1} of dim 1, all of dim 2: x[i] once
    np.testing.assert_array_equal(exe.function("window")(x64, i), x64[i].reshape(1, 1, 1))

    x16 = rng.integers(-30000, 30000, N).astype(np.int16)
    g, v = exe.function("gathered")(x16, np.int32(0))
    np.testing.assert_array_equal(g, x16[0].reshape(1, 1, 1, 1))
    np.testing.assert_array_equal(v, x16[0].reshape(1, 1, 1, 1))
    g, v = exe.function("gathered")(x16, i)     # the index clamped to the view's one element
    np.testing.assert_array_equal(g, x16[i].reshape(1, 1, 1, 1))

    x32 = rng.integers(-2**30, 2**30, N).astype(np.int32)
    got = exe.function("scattered_into")(x32, i, np.int32(12345))
    np.testing.assert_array_equal(got, (x32[40000] + 12345).reshape(1, 1))

    x8 = rng.integers(0, 256, N).astype(np.uint8)
    m = rng.integers(0, 256, (1, N - 1)).astype(np.uint8)
    c, v = exe.function("joined")(x8, i, m)
    np.testing.assert_array_equal(c, np.concatenate([m, x8[i].reshape(1, 1)], axis=1))
    np.testing.assert_array_equal(v, x8[i].reshape(1, 1))
