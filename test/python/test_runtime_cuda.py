"""CUDA: sm_80 PTX (IREE's own table) and sm_90a (Hopper, shlo's target description).

Both compile on any machine; they run where a CUDA device is (docs/gpu.md says how), and the
run tests skip with the reason elsewhere. Numerics are checked against numpy.
"""
import os
import re
import shutil
import subprocess

import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import tool

PROGRAM = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.multiply %a, %b : tensor<2x3xf32>
  %1 = stablehlo.exponential %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
func.func @f64_math(%x: tensor<5xf64>) -> tensor<5xf64> {
  %0 = stablehlo.sine %x : tensor<5xf64>
  %1 = stablehlo.exponential %0 : tensor<5xf64>
  return %1 : tensor<5xf64>
}
func.func @matmul_f16(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>) -> tensor<64x48xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
       : (tensor<64x32xf16>, tensor<32x48xf16>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}
func.func @bf16_i4(%a: tensor<5xbf16>, %b: tensor<5xbf16>, %i: tensor<6xi4>, %j: tensor<6xi4>)
    -> (tensor<5xbf16>, tensor<6xi4>) {
  %0 = stablehlo.multiply %a, %b : tensor<5xbf16>
  %1 = stablehlo.add %i, %j : tensor<6xi4>
  return %0, %1 : tensor<5xbf16>, tensor<6xi4>
}
"""
ARCHS = ["sm_80", "sm_90a"]


def cuda_device() -> tuple[bool, str]:
    from shlo.runtime.devices import driver_available
    return driver_available("cuda")


def compute_capability() -> str | None:
    """`9.0` for an H100, from nvidia-smi (None when it cannot tell)."""
    if not shutil.which("nvidia-smi"):
        return None
    done = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                          capture_output=True, text=True)
    lines = done.stdout.split()
    return lines[0] if done.returncode == 0 and lines else None


def run_or_skip(arch):
    ok, why = cuda_device()
    if not ok:
        pytest.skip(f"no CUDA device here: {why}")
    if arch == "sm_90a" and compute_capability() not in (None, "9.0"):
        pytest.skip(f"sm_90a code runs only on compute capability 9.0, this GPU is "
                    f"{compute_capability()}")


@pytest.fixture(scope="module")
def compiled(ctx):
    module = shlo.parse_module(PROGRAM, context=ctx)
    return {arch: shlo.compile(module, target=f"cuda:{arch}") for arch in ARCHS}


@pytest.mark.parametrize("arch", ARCHS)
def test_ptx_is_for_the_requested_gpu(compiled, arch):
    vmfb = compiled[arch].vmfb
    assert set(re.findall(rb"\.target (sm_\w+)", vmfb)) == {arch.encode()}
    assert compiled[arch].device == "cuda" and compiled[arch].target == f"cuda:{arch}"


@pytest.mark.parametrize("arch", ARCHS)
def test_runs_on_cuda(compiled, arch):
    run_or_skip(arch)
    executable = compiled[arch]
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    np.testing.assert_allclose(executable(a, b), np.exp(a.astype(np.float64) * b), rtol=2e-6)

    x = np.array([0.1, 1 + 2**-40, -2.5, 3.0, 100.0])
    np.testing.assert_allclose(executable.function("f64_math")(x), np.exp(np.sin(x)), rtol=1e-14)

    p = rng.standard_normal((64, 32)).astype(np.float16)
    q = rng.standard_normal((32, 48)).astype(np.float16)
    want = p.astype(np.float64) @ q.astype(np.float64)
    np.testing.assert_allclose(executable.function("matmul_f16")(p, q), want, rtol=2e-3, atol=2e-3)

    u = rng.standard_normal(5).astype(ml_dtypes.bfloat16)
    v = rng.standard_normal(5).astype(ml_dtypes.bfloat16)
    i = np.array([7, -8, 3, 7, 1, 5], ml_dtypes.int4)
    j = np.array([1, 7, 2, 7, 0, 6], ml_dtypes.int4)
    product, total = executable.function("bf16_i4")(u, v, i, j)
    np.testing.assert_array_equal(product, (u.astype(np.float32) * v).astype(ml_dtypes.bfloat16))
    wrapped = (i.astype(np.int64) + j.astype(np.int64) + 8) % 16 - 8
    np.testing.assert_array_equal(total, wrapped.astype(ml_dtypes.int4))


def test_shlo_run_on_cuda(compiled, tmp_path):
    run_or_skip("sm_80")
    path = str(tmp_path / "m.vmfb")
    compiled["sm_80"].save(path)
    done = subprocess.run([tool("shlo-run"), path, "--device", "cuda", "--function", "f64_math",
                           "--input=5xf64=0,0,0,0,0"], capture_output=True, text=True,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "5xf64=1 1 1 1 1"
