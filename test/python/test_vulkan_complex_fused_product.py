"""vk-complex-fused-product: a real dot_general or convolution whose fused elementwise readers
also read a complex value failed to compile on vulkan, also without shlo's passes ('unresolved
source materialization' of memref<1xf16> to memref<1x1xf16, strided<[3, 1]>>; fuzz seed 65
program 336), or that computes a complex value (a ui8 product of 2x16 by 16x2 converted to
complex<f32>: the same error, seed 168 program 109, `byte_product_to_complex_vulkan`; here
its values at 65536 rows); against numpy at real sizes, on cpu (with the Vulkan rewrites) and
vulkan."""
import numpy as np
import pytest

from conftest import compile_with_vulkan_rules

M, B = 65536, 4096
PROGRAM = f"""
func.func @product_plus_real(%a: tensor<{M}x8xf32>, %b: tensor<8x3xf32>,
                             %c: tensor<{M}x3xcomplex<f32>>) -> tensor<{M}x3xf32> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<{M}x8xf32>, tensor<8x3xf32>) -> tensor<{M}x3xf32>
  %r = stablehlo.imag %c : (tensor<{M}x3xcomplex<f32>>) -> tensor<{M}x3xf32>
  %s = stablehlo.multiply %d, %r : tensor<{M}x3xf32>
  return %s : tensor<{M}x3xf32>
}}
func.func @f16_convolution_times_real(%x: tensor<{B}x2x2x2xf16>, %w: tensor<2x2x2x3xf16>,
                                      %c: tensor<{B * 3}xcomplex<f32>>) -> tensor<{B}x1x1x3xf16> {{
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[i, 0, 1, o]->[b, 1, 0, f],
      window = {{stride = [1, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}}
      {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}
      : (tensor<{B}x2x2x2xf16>, tensor<2x2x2x3xf16>) -> tensor<{B}x1x1x3xf16>
  %r = stablehlo.real %c : (tensor<{B * 3}xcomplex<f32>>) -> tensor<{B * 3}xf32>
  %h = stablehlo.convert %r : (tensor<{B * 3}xf32>) -> tensor<{B * 3}xf16>
  %e = stablehlo.reshape %h : (tensor<{B * 3}xf16>) -> tensor<{B}x1x1x3xf16>
  %m = stablehlo.abs %y : tensor<{B}x1x1x3xf16>
  %s = stablehlo.add %m, %e : tensor<{B}x1x1x3xf16>
  return %s : tensor<{B}x1x1x3xf16>
}}
func.func @byte_product_to_complex(%a: tensor<{M}x16xui8>, %b: tensor<16x2xui8>)
    -> tensor<{M}x2xcomplex<f32>> {{
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<{M}x16xui8>, tensor<16x2xui8>) -> tensor<{M}x2xui8>
  %z = stablehlo.convert %d : (tensor<{M}x2xui8>) -> tensor<{M}x2xcomplex<f32>>
  return %z : tensor<{M}x2xcomplex<f32>>
}}
"""


def _complex(rng, n):
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_products_fused_with_complex_reads(ctx, target):
    exe = compile_with_vulkan_rules(ctx, PROGRAM, target)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, 8)).astype(np.float32)
    b = rng.standard_normal((8, 3)).astype(np.float32)
    c = _complex(rng, M * 3).reshape(M, 3)
    got = exe.function("product_plus_real")(a, b, c)
    want = (a.astype(np.float64) @ b) * c.imag
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

    x = rng.uniform(-2, 2, (B, 2, 2, 2)).astype(np.float16)
    w = rng.uniform(-2, 2, (2, 2, 2, 3)).astype(np.float16)
    c = _complex(rng, B * 3)
    got = exe.function("f16_convolution_times_real")(x, w, c)
    # out[b, 0, 0, o] = sum over f, i, j of x[b, f, i, j] w[f, i, j, o] (the one window)
    y = np.einsum("bfij,fijo->bo", x.astype(np.float64), w.astype(np.float64))
    want = (np.abs(y.astype(np.float16).astype(np.float64)) +
            c.real.astype(np.float16).reshape(B, 3)).astype(np.float16).reshape(B, 1, 1, 3)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=2e-3, atol=2e-3)

    a = rng.integers(0, 256, (M, 16)).astype(np.uint8)
    b = rng.integers(0, 256, (16, 2)).astype(np.uint8)
    got = exe.function("byte_product_to_complex")(a, b)
    want = (a.astype(np.uint64) @ b.astype(np.uint64)) % 256     # the ui8 sum wraps
    np.testing.assert_array_equal(got, want.astype(np.complex64))
