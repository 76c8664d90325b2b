"""Targets as data: names, flags, the checks that run before IREE, cross-compiling, f64 policy."""
import re

import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip
from shlo.pipelines.targets import (CUDA_SHLO_TARGETS, F64_ARITHMETIC, F64_FULL, F64_NONE, KINDS,
                                    get_target)
from shlo.runtime.target_probe import needs_probe

ADD = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


@pytest.mark.parametrize("spec, name, driver, flags", [
    ("cpu", "cpu:host", "local-task",
     ["--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"]),
    ("cpu:znver4", "cpu:znver4", "local-task", ["--iree-llvmcpu-target-cpu=znver4"]),
    ("cpu:aarch64-linux-gnu", "cpu:aarch64-linux-gnu", "local-task",
     ["--iree-llvmcpu-target-triple=aarch64-linux-gnu", "--iree-llvmcpu-target-cpu=generic"]),
    ("cpu:riscv64-linux-gnu:sifive-u74", "cpu:riscv64-linux-gnu:sifive-u74", "local-task",
     ["--iree-llvmcpu-target-triple=riscv64-linux-gnu", "--iree-llvmcpu-target-cpu=sifive-u74"]),
    ("vulkan", "vulkan:llvmpipe", "vulkan", ["--iree-vulkan-target=llvmpipe"]),
    ("vulkan:RDNA3", "vulkan:rdna3", "vulkan", ["--iree-vulkan-target=rdna3"]),
    ("vulkan:adreno-740l", "vulkan:adreno-740l", "vulkan", ["--iree-vulkan-target=adreno-740l"]),
    ("cuda", "cuda:sm_80", "cuda", ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"]),
    ("cuda:sm_89", "cuda:sm_89", "cuda", ["--iree-cuda-target=sm_89"]),
    ("cuda:hopper", "cuda:sm_90", "cuda", ["--iree-hal-target-device=cuda"]),
    ("hip", "hip:gfx942", "hip", ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"]),
    ("vmvx", "vmvx", "local-sync", ["--iree-hal-local-target-device-backends=vmvx"]),
])
@pytest.mark.every_case
def test_target_names_flags_and_drivers(spec, name, driver, flags):
    target = get_target(spec, ["--iree-opt-level=O2"])
    assert target.name == name and target.driver == driver
    for flag in flags:
        assert flag in target.flags
    assert target.flags[-1] == "--iree-opt-level=O2"                  # user flags come last
    assert "--iree-input-demote-f64-to-f32=false" in target.flags     # f64 stays f64


def test_hopper_gets_a_target_description_instead_of_a_flag():
    target = get_target("cuda:sm_90a")
    assert not any(f.startswith("--iree-cuda-target=") for f in target.flags)
    assert 'arch = "sm_90a"' in target.device_targets
    assert get_target("cuda:sm_89").device_targets is None


@pytest.mark.parametrize("spec, message", [
    ("tpu", "unknown target 'tpu'"),
    ("vulkan:swiftshader", "unknown vulkan target 'swiftshader' \\(known: .*llvmpipe"),
    ("cuda:h800", "unknown cuda target 'h800' \\(known: .*sm_90a"),
    ("cuda:sm_50", "unknown cuda target 'sm_50'"),
    ("hip:rdna3", "unknown hip target 'rdna3'"),
    ("vmvx:fast", "target 'vmvx' takes no variant"),
    ("cpu:a:b", "expected cpu:CPU, cpu:TRIPLE or cpu:TRIPLE:CPU"),
])
@pytest.mark.every_case
def test_bad_target_names_fail_before_iree(spec, message):
    # IREE aborts the whole process on unknown Vulkan and CUDA names: shlo must stop them first.
    with pytest.raises(shlo.CompileError, match=message):
        get_target(spec)


def test_user_flags_that_name_a_gpu_are_checked_too():
    with pytest.raises(shlo.CompileError, match="unknown vulkan target 'nosuch'"):
        get_target("vulkan", ["--iree-vulkan-target=nosuch"])


def test_which_targets_get_probed():
    assert not needs_probe(get_target("cpu")) and not needs_probe(get_target("vulkan"))
    assert needs_probe(get_target("cpu:znver4"))
    assert needs_probe(get_target("cpu:aarch64-linux-gnu"))
    assert needs_probe(get_target("cuda", ["--iree-cuda-target-features=+ptx80"]))


def test_f64_support_is_data():
    assert get_target("cpu").f64 == F64_FULL and get_target("vmvx").f64 == F64_FULL
    assert get_target("vulkan").f64 == F64_ARITHMETIC
    assert get_target("vulkan:valhall").f64 == F64_NONE
    assert get_target("vulkan:adreno").f64 == F64_NONE
    assert set(KINDS) == {"cpu", "vulkan", "cuda", "hip", "vmvx"}


def test_unknown_cpu_is_an_error_not_an_abort():
    # LLVM would end the process ("64-bit code requested on a subtarget ..."): the probe runs
    # iree-compile in a child and turns what LLVM printed into a CompileError.
    with pytest.raises(shlo.CompileError, match=r"unknown CPU 'nosuchcpu'.*LLVM accepts: .*znver4"):
        shlo.compile(ADD, target="cpu:nosuchcpu", cache=False)


def test_cross_compiled_module_compiles_and_says_why_it_cannot_run_here():
    executable = shlo.compile(ADD, target="cpu:aarch64-linux-gnu", cache=False)
    assert b"embedded-elf-arm_64" in executable.vmfb
    with pytest.raises(shlo.DeviceError, match="cannot run on device 'local-(task|sync)' \\(compiled "
                                               "for cpu:aarch64-linux-gnu\\)"):
        executable(np.ones(4, np.float32), np.ones(4, np.float32))


def test_hip_compiles_without_a_gpu():
    executable = shlo.compile(ADD, target="hip:gfx942", cache=False)
    assert b"amdgcn-amd-amdhsa" in executable.vmfb or b"gfx942" in executable.vmfb


F64_MATH = """func.func @main(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %0 = stablehlo.sine %x : tensor<4xf64>
  %1 = stablehlo.multiply %0, %x : tensor<4xf64>
  return %0, %1 : tensor<4xf64>, tensor<4xf64>
}"""


def test_f64_transcendental_on_vulkan_is_rejected_with_the_opt_in(ctx):
    # without shlo's pipeline (whose shlo-expand-f64-math computes f64 sine itself)
    module = shlo.parse_module(F64_MATH, context=ctx, source_name="math.mlir")
    with pytest.raises(shlo.CompileError) as info:
        shlo.compile(module, target="vulkan", pipeline="none", cache=False)
    message = str(info.value)
    assert message.startswith("math.mlir:2:") and "stablehlo.sine in f64" in message
    assert "demote_f64=True" in message and "--demote-f64" in message


def test_vulkan_target_without_f64_rejects_any_f64(ctx):
    arith = "func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {\n" \
            "  %0 = stablehlo.add %x, %x : tensor<2xf64>\n  return %0 : tensor<2xf64>\n}"
    with pytest.raises(shlo.CompileError, match="vulkan:valhall has no f64 at all"):
        shlo.compile(shlo.parse_module(arith, context=ctx), target="vulkan:valhall", cache=False)


def test_demoting_f64_is_explicit_and_keeps_the_f64_interface(ctx):
    vulkan_or_skip()
    executable = shlo.compile(shlo.parse_module(F64_MATH, context=ctx), target="vulkan",
                              demote_f64=True, cache=False)
    assert str(executable.signatures["main"]) == "@main(4xf64) -> (4xf64, 4xf64)"
    x = np.array([0.5, 1 + 2**-40, -2.0, 3.0])
    sine, product = executable(x)
    assert sine.dtype == np.float64
    # Computed in f32: close to the f64 oracle, and exactly representable in f32.
    np.testing.assert_allclose(sine, np.sin(x), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(sine, sine.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(product, np.sin(x) * x, rtol=1e-6, atol=1e-7)


def test_shlo_descriptions_cover_hopper():
    assert set(CUDA_SHLO_TARGETS) == {"sm_90", "sm_90a"}
    text = get_target("cuda:sm_90").device_targets
    assert re.search(r"max_workgroup_memory_bytes = 232448", text)
