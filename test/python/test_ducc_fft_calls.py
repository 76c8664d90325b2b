"""jax's CPU FFT custom call of 2023 (`ducc_fft`, a flatbuffer descriptor and the operand) as
stablehlo.fft. The descriptor is the one jax wrote for jnp.fft.fft of a 3x4 complex64 array
(jax's back-compat data of 2023); numpy's fft is the oracle."""
import numpy as np
import pytest

import shlo

FFT_3x4 = ("0x18000000140024000000000008000C001000140007001800140000000000000154000000380000001C"
           "00000010000000000000000000F03F000000000100000001000000020000000400000000000000010000"
           "0000000000000000000200000004000000000000000100000000000000000000000200000003000000"
           "000000000400000000000000")


def _module(descriptor: str) -> str:
    return f"""func.func @main(%x: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {{
    %d = stablehlo.constant dense<"{descriptor}"> : tensor<{(len(descriptor) - 2) // 2}xui8>
    %0 = stablehlo.custom_call @ducc_fft(%d, %x) {{api_version = 2 : i32}}
        : (tensor<{(len(descriptor) - 2) // 2}xui8>, tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    return %0 : tensor<3x4xcomplex<f32>>
}}"""


def test_the_descriptor_jax_wrote_for_fft_is_numpys_fft(ctx):
    x = (np.arange(12) + 1j * np.arange(12)[::-1]).reshape(3, 4).astype(np.complex64)
    x += np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    got = shlo.compile(shlo.parse_module(_module(FFT_3x4), context=ctx), target="cpu")(x)
    np.testing.assert_allclose(got, np.fft.fft(x, axis=-1), rtol=1e-5, atol=1e-5)


def test_a_descriptor_that_is_not_a_flatbuffer_is_a_clear_error(ctx):
    with pytest.raises(shlo.Error, match=r"@ducc_fft: its descriptor is not a DuccFftDescriptor"):
        shlo.compile(shlo.parse_module(_module("0x0100"), context=ctx), target="cpu")


def test_a_descriptor_that_is_not_a_constant_is_a_clear_error(ctx):
    text = """func.func @main(%d: tensor<8xui8>, %x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
    %0 = stablehlo.custom_call @ducc_fft(%d, %x) : (tensor<8xui8>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    return %0 : tensor<4xcomplex<f32>>
}"""
    with pytest.raises(shlo.Error, match=r"@ducc_fft: its descriptor \(operand 0\) is not a "
                                         r"constant"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
