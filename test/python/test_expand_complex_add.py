"""shlo-expand-complex-add: complex add/subtract of two equal reshapes or transposes of one
value, a part of the result returned (IREE 3.13 failed to compile them on cpu and vulkan:
'failed to legalize operation stablehlo.add'), at 64K elements against numpy."""
import numpy as np
import pytest

C = "tensor<256x256xcomplex<f32>>"
FLAT, FLAT_F = "tensor<1x1x1x65536xcomplex<f32>>", "tensor<1x1x1x65536xf32>"
T, T_F = "tensor<256x256xcomplex<f32>>", "tensor<256x256xf32>"

PROGRAM = f"""
func.func @add_of_reshapes(%x: {C}) -> {FLAT_F} {{
  %a = stablehlo.reshape %x : ({C}) -> {FLAT}
  %f = stablehlo.reshape %x : ({C}) -> tensor<65536xcomplex<f32>>
  %b = stablehlo.reshape %f : (tensor<65536xcomplex<f32>>) -> {FLAT}
  %s = stablehlo.add %a, %b : {FLAT}
  %r = stablehlo.real %s : ({FLAT}) -> {FLAT_F}
  return %r : {FLAT_F}
}}
func.func @subtract_of_reshapes(%x: {C}) -> tensor<65536xf32> {{
  %a = stablehlo.reshape %x : ({C}) -> tensor<65536xcomplex<f32>>
  %b = stablehlo.reshape %x : ({C}) -> tensor<65536xcomplex<f32>>
  %s = stablehlo.subtract %a, %b : tensor<65536xcomplex<f32>>
  %i = stablehlo.imag %s : (tensor<65536xcomplex<f32>>) -> tensor<65536xf32>
  return %i : tensor<65536xf32>
}}
func.func @add_of_transposes(%x: {C}) -> {T_F} {{
  %a = stablehlo.transpose %x, dims = [1, 0] : ({C}) -> {T}
  %b = stablehlo.transpose %x, dims = [1, 0] : ({C}) -> {T}
  %s = stablehlo.add %a, %b : {T}
  %r = stablehlo.real %s : ({T}) -> {T_F}
  return %r : {T_F}
}}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_add_of_equal_views(target):
    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((256, 256)) + 1j * rng.standard_normal((256, 256))).astype(np.complex64)
    exe = shlo.compile(PROGRAM, target=target, cache=False)
    expect = {"add_of_reshapes": (2 * x.real).reshape(1, 1, 1, -1),
              "subtract_of_reshapes": np.zeros(65536),
              "add_of_transposes": 2 * x.real.T}
    for name, want in expect.items():
        got = np.asarray(exe.function(name)(x))
        assert got.shape == want.shape, name
        np.testing.assert_array_equal(got, want.astype(np.float32), err_msg=name)
