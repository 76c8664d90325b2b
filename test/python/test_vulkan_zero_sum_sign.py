"""vk-zero-sum-sign: a float sum from +0 of terms that are all -0 is +0 (the spec's dot_general,
convolution, reduce and reduce_window start from their zero); on vulkan short ones (products
contracting 2 to 100 elements, row, column and window sums alike, f16/bf16/f32/f64) came out
-0, also without shlo's passes (fuzz seed 61 program 189). A product of one term per result is
that term, -0 included, as XLA's and the CPU's are (fuzz seed 146 program 34). Integer-valued
inputs, so that every sum is exact: values and signs of zero against numpy, on cpu (with the
Vulkan rewrites) and vulkan."""
import ml_dtypes
import numpy as np
import pytest

from conftest import compile_with_vulkan_rules

N = 65536
PROGRAM = f"""
func.func @matvec_f32(%a: tensor<{N}x3xf32>, %b: tensor<3xf32>) -> tensor<{N}xf32> {{
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{N}x3xf32>, tensor<3xf32>) -> tensor<{N}xf32>
  return %r : tensor<{N}xf32>
}}
func.func @batched_f16(%a: tensor<4x128x2xf16>, %b: tensor<4x2x128xf16>) -> tensor<4x128x128xf16> {{
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x2xf16>, tensor<4x2x128xf16>) -> tensor<4x128x128xf16>
  return %r : tensor<4x128x128xf16>
}}
func.func @outer_f32(%a: tensor<{N}x1xf32>, %b: tensor<1x3xf32>, %s: tensor<f32>) -> (tensor<{N}x3xf32>, tensor<{N}x1xf32>) {{
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{N}x1xf32>, tensor<1x3xf32>) -> tensor<{N}x3xf32>
  %t = stablehlo.dot_general %s, %a, contracting_dims = [] x [] : (tensor<f32>, tensor<{N}x1xf32>) -> tensor<{N}x1xf32>
  return %r, %t : tensor<{N}x3xf32>, tensor<{N}x1xf32>
}}
func.func @vecmat_bf16(%b: tensor<5xbf16>, %a: tensor<5x{N}xbf16>) -> tensor<{N}xbf16> {{
  %r = stablehlo.dot_general %b, %a, contracting_dims = [0] x [0] : (tensor<5xbf16>, tensor<5x{N}xbf16>) -> tensor<{N}xbf16>
  return %r : tensor<{N}xbf16>
}}
func.func @matvec_f64(%a: tensor<8192x17xf64>, %b: tensor<17xf64>) -> tensor<8192xf64> {{
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8192x17xf64>, tensor<17xf64>) -> tensor<8192xf64>
  return %r : tensor<8192xf64>
}}
func.func @conv_f32(%x: tensor<1x{N}x2xf32>, %w: tensor<3x2x1xf32>) -> tensor<1x{N - 2}x1xf32> {{
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x{N}x2xf32>, tensor<3x2x1xf32>) -> tensor<1x{N - 2}x1xf32>
  return %r : tensor<1x{N - 2}x1xf32>
}}
func.func @rows_f32(%x: tensor<{N}x7xf32>, %i: tensor<f32>) -> (tensor<{N}xf32>, tensor<{N}xf32>, tensor<{N}xf32>) {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.constant dense<-0.0> : tensor<f32>
  %a = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<{N}x7xf32>, tensor<f32>) -> tensor<{N}xf32>
  %b = stablehlo.reduce(%x init: %m) applies stablehlo.add across dimensions = [1] : (tensor<{N}x7xf32>, tensor<f32>) -> tensor<{N}xf32>
  %c = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1] : (tensor<{N}x7xf32>, tensor<f32>) -> tensor<{N}xf32>
  return %a, %b, %c : tensor<{N}xf32>, tensor<{N}xf32>, tensor<{N}xf32>
}}
func.func @columns_f16(%x: tensor<3x{N}xf16>) -> tensor<{N}xf16> {{
  %z = stablehlo.constant dense<0.0> : tensor<f16>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x{N}xf16>, tensor<f16>) -> tensor<{N}xf16>
  return %r : tensor<{N}xf16>
}}
func.func @windows_f32(%x: tensor<{N}xf32>) -> tensor<{N - 2}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %z) <{{window_dimensions = array<i64: 3>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) : (tensor<{N}xf32>, tensor<f32>) -> tensor<{N - 2}xf32>
  return %r : tensor<{N - 2}xf32>
}}
func.func @loop_f32(%a: tensor<256x2xf32>, %b: tensor<2xf32>) -> tensor<256xf32> {{
  %n = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %y0 = stablehlo.constant dense<1.0> : tensor<256xf32>
  %r:2 = stablehlo.while(%i = %n, %y = %y0) : tensor<i32>, tensor<256xf32>
   cond {{
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{
    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x2xf32>, tensor<2xf32>) -> tensor<256xf32>
    %e = stablehlo.multiply %d, %y : tensor<256xf32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %e : tensor<i32>, tensor<256xf32>
  }}
  return %r#1 : tensor<256xf32>
}}
"""


def _sum(terms, axis, init=0.0):
    """The spec's sum (from `init`) of exactly representable terms, in float64."""
    return np.add.reduce(np.asarray(terms, np.float64), axis=axis, initial=init)


def _same(got, want):
    """Equal values and equal signs of zero."""
    got = np.asarray(got).astype(np.float64)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def _ints(rng, shape, dtype, zeros=0.5):
    """Small integers, about `zeros` of them 0 (half +0, half -0), as `dtype`."""
    x = rng.integers(-4, 5, shape).astype(np.float64)
    x[rng.random(shape) < zeros] = 0.0
    x[(x == 0) & (rng.random(shape) < 0.5)] = -0.0
    return x.astype(dtype)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_sums_of_negative_zeros(ctx, target):
    exe = compile_with_vulkan_rules(ctx, PROGRAM, target)
    rng = np.random.default_rng(189)
    a = -np.abs(_ints(rng, (N, 3), np.float32, zeros=0.1))     # -0 products with b's zeros
    for b in (np.zeros(3, np.float32), np.float32([2, 0, -3])):
        _same(exe.function("matvec_f32")(a, b), _sum(a[:, :, None] * b[:, None], 1)[:, 0])
    h = -np.abs(_ints(rng, (4, 128, 2), np.float16))
    z = np.zeros((4, 2, 128), np.float16)
    _same(exe.function("batched_f16")(h, z), _sum(h[:, :, :, None] * z[:, None], 2))
    o = _ints(rng, (N, 1), np.float32)
    q = np.float32([[0.0, -0.0, -2.0]])
    products = exe.function("outer_f32")(o, q, np.float32(-0.0))
    _same(products[0], o.astype(np.float64) * q)              # one term: its own sign of zero
    _same(products[1], o.astype(np.float64) * -0.0)
    v = _ints(rng, (5, N), ml_dtypes.bfloat16)
    for w in (-np.ones(5, ml_dtypes.bfloat16), np.zeros(5, ml_dtypes.bfloat16)):
        got = np.asarray(exe.function("vecmat_bf16")(w, v)).astype(np.float32)
        _same(got, _sum(w.astype(np.float64)[:, None] * v.astype(np.float64), 0))
    d = -np.abs(_ints(rng, (8192, 17), np.float64))
    _same(exe.function("matvec_f64")(d, np.zeros(17)), _sum(d * 0.0, 1))
    x = _ints(rng, (1, N, 2), np.float32)
    kernel = np.zeros((3, 2, 1), np.float32)
    kernel[1, 0, 0] = -1.0                                     # x's -0s times -1: +0
    terms = np.stack([x[0, k:N - 2 + k] * kernel[k, :, 0] for k in range(3)], -1)
    _same(exe.function("conv_f32")(x, kernel), _sum(terms, (1, 2))[None, :, None])
    r = -np.abs(_ints(rng, (N, 7), np.float32, zeros=0.9))
    got = exe.function("rows_f32")(r, np.float32(-0.0))
    for each, init in zip(got, (0.0, -0.0, -0.0)):
        _same(each, _sum(r, 1, init))
    c = -np.abs(_ints(rng, (3, N), np.float16, zeros=0.9))
    _same(exe.function("columns_f16")(c), _sum(c, 0))
    s = -np.abs(_ints(rng, N, np.float32, zeros=0.9))
    _same(exe.function("windows_f32")(s), _sum(np.stack([s[k:N - 2 + k] for k in range(3)]), 0))
    m = -np.abs(_ints(rng, (256, 2), np.float32, zeros=0.0))
    _same(exe.function("loop_f32")(m, np.zeros(2, np.float32)), np.zeros(256))


NEGATED = f"""
func.func @negated_rows(%x: tensor<{N}x4xf32>) -> (tensor<{N}xf32>, tensor<{N}xf32>, tensor<{N}xf32>) {{
  %n = stablehlo.negate %x : tensor<{N}x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.constant dense<-0.0> : tensor<f32>
  %c = stablehlo.constant dense<2.5> : tensor<f32>
  %a = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [1] : (tensor<{N}x4xf32>, tensor<f32>) -> tensor<{N}xf32>
  %b = stablehlo.reduce(%n init: %m) applies stablehlo.add across dimensions = [1] : (tensor<{N}x4xf32>, tensor<f32>) -> tensor<{N}xf32>
  %d = stablehlo.reduce(%n init: %c) applies stablehlo.add across dimensions = [1] : (tensor<{N}x4xf32>, tensor<f32>) -> tensor<{N}xf32>
  return %a, %b, %d : tensor<{N}xf32>, tensor<{N}xf32>, tensor<{N}xf32>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sums_of_negated_values(ctx, target):
    """vk-negated-sum sums the values and negates the sum: a sum that cancels to 0 (rows of
    [1, -1, 2, -2]) was -0 for +0; from a -0 init, rows of +0 give -0 and cancelling ones +0."""
    exe = compile_with_vulkan_rules(ctx, NEGATED, target)
    x = _ints(np.random.default_rng(916), (N, 4), np.float32)
    x[:N // 4] = [1, -1, 2, -2]
    x[N // 4:N // 3] = 0.0
    x[N // 3:N // 2] = [1.25, 1.25, 0, 0]
    for got, init in zip(exe.function("negated_rows")(x), (0.0, -0.0, 2.5)):
        _same(got, _sum(-x, 1, init))
