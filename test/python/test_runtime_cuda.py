"""CUDA: sm_80 PTX (IREE's own table) and sm_90a (Hopper, shlo's target description).

Both compile on any machine; they run where a CUDA device is (docs/gpu.md says how), and the
run tests skip with the reason elsewhere. Numerics are checked against numpy.
"""
import os
import re
import shutil
import subprocess
import threading

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
@pytest.mark.every_case
def test_ptx_is_for_the_requested_gpu(compiled, arch):
    vmfb = compiled[arch].vmfb
    assert set(re.findall(rb"\.target (sm_\w+)", vmfb)) == {arch.encode()}
    assert compiled[arch].device == "cuda" and compiled[arch].target == f"cuda:{arch}"


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.every_case
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


def test_cuda_calls_from_other_threads(compiled):
    """IREE makes the device's CUDA context current on the thread that opened it only: calls
    from other threads failed with CUDA_ERROR_INVALID_CONTEXT until shlo bound it."""
    run_or_skip("sm_80")
    executable = compiled["sm_80"]
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    executable(a, b)                # the device opens on this thread
    results, errors = [], []

    def call():
        try:
            results.append(executable(a, b))
        except Exception as e:      # reported below
            errors.append(e)
    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    for got in results:
        np.testing.assert_allclose(got, np.exp(a.astype(np.float64) * b), rtol=2e-6)


def test_cuda_run_parallel_all_reduce(ctx):
    """run_parallel runs each process on its own thread (the all_reduce goes through shlo's
    host module), on the one CUDA device."""
    run_or_skip("sm_80")
    text = """
    module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
      func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
        %0 = "stablehlo.all_reduce"(%x) ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
        return %0 : tensor<4xf32>
      }
    }"""
    executable = shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_80")
    x = [np.arange(4, dtype=np.float32), np.full(4, 10, np.float32)]
    out = shlo.run_parallel(executable, [[x[0]], [x[1]]], num_replicas=2)
    for got in out:
        np.testing.assert_array_equal(np.asarray(got), x[0] + x[1])


NAN_PROGRAM = """
func.func @main(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4xf32>, tensor<6xf32>,
        tensor<2x3xf32>) {
  %0 = stablehlo.maximum %a, %b : tensor<4x6xf32>
  %1 = stablehlo.minimum %a, %b : tensor<4x6xf32>
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %2 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %3 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [1]
       : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.reduce(%a init: %pinf) applies stablehlo.minimum across dimensions = [0]
       : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  %5 = "stablehlo.reduce_window"(%a, %ninf) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = stablehlo.maximum %x, %y : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
     : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>,
         tensor<4xf32>, tensor<6xf32>, tensor<2x3xf32>
}
"""


def nan_inputs():
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((4, 6)).astype(np.float32) for _ in range(2))
    a[0, 1], a[2, 5], b[2, 5], b[3, 0] = np.nan, np.inf, np.nan, np.nan
    a[1, 3], b[1, 3] = -0.0, 0.0
    want = [np.maximum(a, b), np.minimum(a, b), np.clip(a, -1, 1), a.max(1), a.min(0),
            a.reshape(2, 2, 3, 2).max(axis=(1, 3))]
    want[0][1, 3], want[1][1, 3] = 0.0, -0.0     # numpy does not order zeros; the spec does
    return a, b, want


def test_max_min_propagate_nan_on_cuda(ctx):
    """IREE's CUDA code computes max(NaN, inf) = inf (PTX max.f32); shlo-legalize-gpu-ops
    makes max, min, clamp and max/min reductions and windows NaN where an input is NaN."""
    run_or_skip("sm_80")
    a, b, want = nan_inputs()
    got = shlo.compile(shlo.parse_module(NAN_PROGRAM, context=ctx), target="cuda:sm_80")(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)      # NaNs at the same places (numpy's NaN rule)


def test_cuda_compiles_at_o2_and_retries_at_o0(ctx):
    """cuda compiles at O2 (at O0 jax's LU of 64 rows came back all zeros on an H200); jax's
    QR of 64 rows fails at O2 ("failed to distribute") and compiles again at O0."""
    import jax
    import jax.numpy as jnp
    from shlo.pipelines.targets import get_target
    assert "--iree-opt-level=O2" in get_target("cuda:sm_90a").flags
    a = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    text = jax.jit(lambda a: jnp.linalg.qr(a)[1]).trace(a).lower(
        lowering_platforms=("cuda",)).as_text()
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)



def test_cuda_retries_a_scatter_too_big_for_shared_memory(ctx):
    """shlo-bench's scatter_add_1M fused so that IREE kept its whole operand in shared memory
    (4 MiB of sm_90a's 227 KiB); the retry compiles it without aggressive fusion."""
    import jax
    from shlo.tools.bench_workloads import workloads
    w = next(w for w in workloads() if w.name == "scatter_add_1M")
    text = jax.jit(w.jax_fn).lower(*w.inputs(np.random.default_rng(0))).as_text()
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)


# ---- sm_90a code, read from the PTX (compile only), and the device-resident bench mode

KERNELS = """
func.func @main(%a: tensor<256x512xf32>, %b: tensor<512x256xf32>, %h: tensor<256x512xf16>,
                %g: tensor<512x256xf16>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
       : (tensor<256x512xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
  %1 = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0]
       : (tensor<256x512xf16>, tensor<512x256xf16>) -> tensor<256x256xf32>
  return %0, %1 : tensor<256x256xf32>, tensor<256x256xf32>
}
"""


def test_sm90a_target_description():
    """What shlo tells IREE about Hopper: PTX 8.0, 227 KiB of shared memory a workgroup,
    warps of 32, 1024 threads, and no f32 (TF32) tensor-core intrinsic, so f32 stays f32."""
    from shlo.pipelines.targets import cuda_device_targets
    text = cuda_device_targets("sm_90a")
    assert 'arch = "sm_90a"' in text and 'features = "+ptx80"' in text
    assert "max_workgroup_memory_bytes = 232448" in text
    assert "subgroup_size_choices = [32]" in text and "max_thread_count_per_workgroup = 1024" in text
    assert "NV_MMA_SYNC_F32_16x8x16_F16" in text and "TF32" not in text


def test_sm90a_kernels(ctx):
    """f16 products run on tensor cores (mma.sync, through shared memory); f32 products are
    f32 FMAs (IREE 3.13 has no TF32 intrinsic: exact f32, as XLA at 'highest' precision)."""
    from shlo.tools.gpu_bench import inspect
    found = inspect(shlo.parse_module(KERNELS, context=ctx), "cuda:sm_90a")
    assert found.error is None and found.ptx_header == ".version 8.0 / .target sm_90a"
    assert found.dispatches == 2
    by_type = {("f16" if "f16" in k.name else "f32"): k for k in found.kernels}
    assert by_type["f16"].counts.get("mma", 0) > 0 and by_type["f16"].counts.get("ld.shared")
    assert not by_type["f32"].tensor_cores and by_type["f32"].counts.get("fma.f32", 0) > 0


RESIDENT = """
func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xbf16>)
    -> (tensor<64x48xf32>, tensor<64x48xbf16>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
       : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %1 = stablehlo.add %c, %c : tensor<64x48xbf16>
  return %0, %1 : tensor<64x48xf32>, tensor<64x48xbf16>
}
"""


@pytest.mark.parametrize("target", ["cpu", "cuda:sm_80"])
def test_resident_calls(ctx, target):
    """shlo-bench --resident: inputs uploaded once, calls queued through fences, results
    left on the device, one wait at the end (runs on the CPU too)."""
    from shlo.runtime.devices import aligned
    from shlo.tools.gpu_bench import ASYNC_FLAG, ResidentCall
    if target.startswith("cuda"):
        run_or_skip("sm_80")
    rng = np.random.default_rng(3)
    a = aligned(rng.standard_normal((64, 32)).astype(np.float32))
    b = aligned(rng.standard_normal((32, 48)).astype(np.float32))
    c = aligned(rng.standard_normal((64, 48)).astype(ml_dtypes.bfloat16))
    module = shlo.parse_module(RESIDENT, context=ctx)
    calls = ResidentCall(shlo.compile(module, target=target, flags=[ASYNC_FLAG]), [a, b, c])
    calls.launch(5)
    calls.wait()
    product, doubled = calls.results()
    np.testing.assert_allclose(product, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(doubled, (c.astype(np.float32) * 2).astype(ml_dtypes.bfloat16))
    with pytest.raises(ValueError, match="not compiled with"):
        ResidentCall(shlo.compile(module, target=target), [a, b, c])


def test_sm90a_configurations():
    """The configurations tools/gpu_check.sh times compile for sm_90a: `top-k` makes jax's
    top_k IREE's topk (82 dispatches of shlo's sorting network become 17 for 64x4096)."""
    import jax
    from jax import lax
    from shlo.pipelines.gpu_tuning import CONFIGS, TIMED, config_pipeline
    from shlo.pipelines.targets import get_target
    from shlo.tools.gpu_bench import inspect
    x = np.zeros((8, 1024), np.float32)
    text = jax.jit(lambda x: lax.top_k(x, 4)[0]).lower(x).as_text()
    target = get_target("cuda:sm_90a")
    default = inspect(text, "cuda:sm_90a")
    assert default.error is None and config_pipeline(target, "default") is None
    for name in TIMED:
        found = inspect(text, "cuda:sm_90a", CONFIGS[name][0], config_pipeline(target, name))
        assert found.error is None and found.dispatches < default.dispatches, (name, found)
