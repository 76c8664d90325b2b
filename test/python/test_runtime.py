"""In-process compilation and execution on CPU and Vulkan, input validation, save/load, errors."""
import os

import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

PROGRAM = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<2x3xf32>
  %1 = stablehlo.exponential %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
func.func @pair(%x: tensor<4xf64>, %n: tensor<i32>) -> (tensor<4xf64>, tensor<i32>) {
  %0 = stablehlo.add %x, %x : tensor<4xf64>
  %1 = stablehlo.multiply %n, %n : tensor<i32>
  return %0, %1 : tensor<4xf64>, tensor<i32>
}
func.func @half(%x: tensor<5xbf16>) -> tensor<5xbf16> {
  %0 = stablehlo.add %x, %x : tensor<5xbf16>
  return %0 : tensor<5xbf16>
}
"""

A = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
B = np.linspace(0.5, 2, 6, dtype=np.float32).reshape(2, 3)


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(PROGRAM, context=ctx), target="cpu")


@pytest.fixture(scope="module")
def vulkan(ctx):
    vulkan_or_skip()
    return shlo.compile(shlo.parse_module(PROGRAM, context=ctx), target="vulkan")


@pytest.mark.parametrize("which", ["cpu", "vulkan"])
def test_numerics_against_numpy(which, request):
    executable = request.getfixturevalue(which)
    got = executable(A, B)
    np.testing.assert_allclose(got, np.exp(A.astype(np.float64) * B), rtol=2e-6)
    assert got.dtype == np.float32 and got.shape == (2, 3)


def test_several_results_and_f64_stays_f64(cpu):
    # 1 + 2**-40 is not representable in f32: demotion to f32 would lose it.
    x = np.array([1 + 2**-40, -3.5, 1e300, 0.0])
    doubled, square = cpu.function("pair")(x, np.int32(-7))
    assert doubled.dtype == np.float64
    np.testing.assert_array_equal(doubled, x + x)
    assert square == 49 and square.shape == ()


def test_bf16_arrays(cpu):
    x = np.array([1.5, -2, 0.25, 3e37, 7], dtype=ml_dtypes.bfloat16)
    got = cpu.function("half")(x)
    assert got.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(got.astype(np.float32), (x.astype(np.float32) * 2).astype(
        ml_dtypes.bfloat16).astype(np.float32))


@pytest.mark.parametrize("args, message", [
    ((A,), "main: expects 2 arguments, got 1"),
    ((A, B.T), "main: argument 1 expects 2x3xf32, got 3x2xf32"),
    ((A, B.astype(np.float64)), "main: argument 1 expects 2x3xf32, got 2x3xf64"),
    ((A, "text"), "main: argument 1 expects 2x3xf32, got str"),
])
def test_inputs_are_validated_before_the_device(cpu, args, message):
    with pytest.raises(shlo.InvocationError, match=message):
        cpu(*args)


def test_unknown_function(cpu):
    with pytest.raises(shlo.InvocationError, match="no function 'nope'.*main, pair, half"):
        cpu.function("nope")


def test_save_and_load(cpu, tmp_path):
    path = str(tmp_path / "m.vmfb")
    cpu.save(path)
    loaded = shlo.load(path, device="local-sync")
    np.testing.assert_array_equal(loaded(A, B), cpu(A, B))
    with pytest.raises(shlo.InvocationError, match="argument 0 expects 2x3xf32"):
        loaded(B.T, A)


def test_vulkan_reads_back_many_shapes(ctx):
    vulkan_or_skip()
    text = """func.func @main(%a: tensor<7x13xf32>) -> (tensor<7x13xf32>, tensor<f32>) {
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0, 1]
             : (tensor<7x13xf32>, tensor<f32>) -> tensor<f32>
      %n = stablehlo.negate %a : tensor<7x13xf32>
      return %n, %s : tensor<7x13xf32>, tensor<f32>
    }"""
    executable = shlo.compile(shlo.parse_module(text, context=ctx), target="vulkan")
    x = np.random.default_rng(1).standard_normal((7, 13)).astype(np.float32)
    neg, total = executable(x)
    np.testing.assert_array_equal(neg, -x)
    np.testing.assert_allclose(total, x.astype(np.float64).sum(), rtol=1e-5)


def test_compile_error_carries_iree_message_and_reproducer(ctx):
    text = """func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
      %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
      return %0 : tensor<3x3xf32>
    }"""
    with pytest.raises(shlo.CompileError) as info:
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
    error = info.value
    assert "failed to legalize operation 'stablehlo.cholesky'" in str(error)
    assert os.path.isfile(error.reproducer)
    assert "stablehlo.cholesky" in open(error.reproducer).read()
    assert error.command.startswith("shlo-compile ") and error.reproducer in error.command


def test_compile_accepts_text_and_rejects_garbage():
    executable = shlo.compile(PROGRAM.split("func.func @pair")[0], target="vmvx")
    np.testing.assert_allclose(executable(A, B), np.exp(A * B), rtol=1e-6)
    with pytest.raises(shlo.ParseError):
        shlo.compile("func.func @main(")
    with pytest.raises(shlo.CompileError, match="unknown target 'tpu'"):
        shlo.compile(PROGRAM, target="tpu")


def test_same_module_for_two_targets(ctx):
    vulkan_or_skip()
    module = shlo.parse_module(PROGRAM, context=ctx)
    on_cpu = shlo.compile(module, target="cpu")
    on_vulkan = shlo.compile(module, target="vulkan")
    np.testing.assert_allclose(on_cpu(A, B), on_vulkan(A, B), rtol=1e-6)


def test_missing_driver_is_a_clean_error():
    from shlo.runtime.devices import device_config
    with pytest.raises(shlo.DeviceError, match="cannot open IREE device 'no-such-driver'"):
        device_config("no-such-driver")
