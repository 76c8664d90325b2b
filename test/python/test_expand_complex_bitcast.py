"""shlo-expand-complex-bitcast: bitcast_convert between complex<f64> and complex<f32> keeps
every bit (IREE 3.13's own lowering segfaults the compiler, in both directions). numpy's
`view` is the oracle."""
import numpy as np
import pytest

import shlo

TEXT = """
func.func @c128_to_c64(%x: tensor<64x3xcomplex<f64>>) -> tensor<64x3x2xcomplex<f32>> {
  %r = stablehlo.bitcast_convert %x : (tensor<64x3xcomplex<f64>>) -> tensor<64x3x2xcomplex<f32>>
  return %r : tensor<64x3x2xcomplex<f32>>
}
func.func @scalar(%x: tensor<complex<f64>>) -> tensor<2xcomplex<f32>> {
  %r = stablehlo.bitcast_convert %x : (tensor<complex<f64>>) -> tensor<2xcomplex<f32>>
  return %r : tensor<2xcomplex<f32>>
}
func.func @c64_to_c128(%x: tensor<64x3x2xcomplex<f32>>) -> tensor<64x3xcomplex<f64>> {
  %r = stablehlo.bitcast_convert %x : (tensor<64x3x2xcomplex<f32>>) -> tensor<64x3xcomplex<f64>>
  return %r : tensor<64x3xcomplex<f64>>
}
func.func @to_scalar(%x: tensor<2xcomplex<f32>>) -> tensor<complex<f64>> {
  %r = stablehlo.bitcast_convert %x : (tensor<2xcomplex<f32>>) -> tensor<complex<f64>>
  return %r : tensor<complex<f64>>
}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_every_bit_pattern_survives(ctx, target):
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target=target)
    bits = np.random.default_rng(0).integers(0, 2**64, (64, 3, 2), dtype=np.uint64)
    bits[0, 0] = [0x0123456789ABCDEF, 0x0000000011111111]    # the interpreter suite's case
    bits[1, 0] = [0x7FF0000000000000, 0x8000000000000000]    # inf, -0
    bits[2, 0] = [0x7FC000007F800001, 0xFFFFFFFFFFFFFFFF]    # f32 NaN payloads in the words
    x = bits.view(np.complex128).reshape(64, 3)
    got = np.asarray(exe.function("c128_to_c64")(x))
    want = x.view(np.complex64).reshape(64, 3, 2)
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))
    got = np.asarray(exe.function("scalar")(x[0, 0]))
    np.testing.assert_array_equal(got.view(np.uint64), x[0, 0:1].view(np.uint64))
    pairs = x.view(np.complex64).reshape(64, 3, 2)
    got = np.asarray(exe.function("c64_to_c128")(pairs))
    np.testing.assert_array_equal(got.view(np.uint64), bits.reshape(64, 6))
    got = np.asarray(exe.function("to_scalar")(pairs[0, 0]))
    np.testing.assert_array_equal(got.reshape(1).view(np.uint64), bits[0, 0])


def test_a_complex_bitcast_to_its_own_type_is_its_operand(ctx):
    """jax's bitcast_convert_type(x, complex64) of a complex64 x: IREE 3.13's compiler died
    with SIGSEGV on it."""
    text = """
func.func @main(%x: tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>> {
  %r = stablehlo.bitcast_convert %x : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  return %r : tensor<2x3xcomplex<f32>>
}"""
    x = (np.arange(6) - 2.5j * np.arange(6)).astype(np.complex64).reshape(2, 3)
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu", cache=False)(x)
    np.testing.assert_array_equal(np.asarray(got).view(np.uint64), x.view(np.uint64))
