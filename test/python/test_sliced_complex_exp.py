"""exp of a complex value converted from integers, read through a strided slice (shlo-fuzz
seed 71 program 219 at 256x256): on the CPU shlo-slice-before-elementwise sliced part of
shlo-accurate-math's expansion and IREE 3.13 then failed to compile it; the slicer now crosses
only values nothing else reads. Checked against numpy on cpu and Vulkan."""
import numpy as np

import shlo

TEXT = """func.func @main(%x: tensor<256x256xi64>) -> tensor<128x128xcomplex<f32>> {
  %z = stablehlo.convert %x : (tensor<256x256xi64>) -> tensor<256x256xcomplex<f32>>
  %t = stablehlo.transpose %z, dims = [0, 1] : (tensor<256x256xcomplex<f32>>) -> tensor<256x256xcomplex<f32>>
  %e = stablehlo.exponential %t : tensor<256x256xcomplex<f32>>
  %s = stablehlo.slice %e [0:256:2, 0:256:2] : (tensor<256x256xcomplex<f32>>) -> tensor<128x128xcomplex<f32>>
  return %s : tensor<128x128xcomplex<f32>>
}"""


def _check(target: str) -> None:
    x = np.random.default_rng(0).integers(-80, 80, (256, 256)).astype(np.int64)
    got = np.asarray(shlo.compile(TEXT, target=target, cache=False)(x))
    want = np.exp(x[::2, ::2].astype(np.float64)).astype(np.complex64)
    np.testing.assert_allclose(got, want, rtol=4e-7, atol=0)


def test_sliced_complex_exp_cpu():
    _check("cpu")


def test_sliced_complex_exp_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    _check("vulkan")
