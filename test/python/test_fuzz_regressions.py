"""Bugs found by shlo-fuzz, one test each: the reproducer under test/fuzz_regressions/<name>
is replayed on its target and compared with the reference interpreter and XLA
(`shlo-fuzz --replay`). Each is a strict xfail until its owner fixes it (docs/fuzzing.md,
Findings)."""
import os

import pytest

from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz.runner import InProcess, Worker

HERE = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")


def replay(name: str, target: str | None = None, worker=None):
    return fuzz.replay(os.path.join(HERE, name), target, worker or InProcess())


@pytest.mark.xfail(strict=True, reason="IREE 3.13 llvm-cpu: a gather from a slice with a "
                   "stride in the gathered dimension fails to compile (LLVM Translation failed "
                   "for builtin.unrealized_conversion_cast), also without shlo's passes")
def test_gather_of_strided_slice_cpu():
    assert replay("gather_of_strided_slice_cpu") is None


def test_gather_of_strided_slice_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("gather_of_strided_slice_cpu", "vulkan") is None


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="IREE 3.13 llvm-cpu: iree-compile runs for minutes on "
                   "a dot_general (no contracting dimensions) by a computed integer scalar: "
                   "i64[8,2,128] by a scalar sliced from convert(f32[2,2]); i32[5,1] by an "
                   "argmin's index (both hang the vulkan compile too)")
@pytest.mark.parametrize("name", ["dot_scalar_of_converted_slice_cpu_hang",
                                  "dot_scalar_of_argmin_cpu_hang"])
def test_dot_by_computed_scalar_cpu_hang(name):
    assert replay(name, worker=Worker(timeout_s=120)) is None


def test_dynamic_update_slice_of_own_slice_cpu():
    """IREE 3.13 computed dynamic_update_slice(x, slice(x), i) in place and read the update after
    writing it; shlo-copy-overlapping-updates rewrites it first."""
    assert replay("dynamic_update_slice_of_own_slice_cpu") is None


def test_dynamic_update_slice_of_own_slice_vulkan():
    """IREE 3.13 vulkan failed to compile it ('hal.interface.binding.subspan' illegal)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dynamic_update_slice_of_own_slice_vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_reverse_rank0(target):
    """IREE 3.13 failed to legalize a reverse of a rank-0 tensor; shlo-legalize-integer-ops
    folds a reverse that moves nothing to its operand."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("reverse_rank0", target) is None


@pytest.mark.xfail(strict=True, reason="vulkan: convert i32 -> f32 -> bf16 fails to compile "
                   "('spirv.Bitcast' op mismatch in result type bitwidth 16 and operand type "
                   "bitwidth 32); each convert alone compiles")
def test_convert_i32_f32_bf16_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("convert_i32_f32_bf16_vulkan") is None


def test_convert_i32_f32_bf16_cpu():
    assert replay("convert_i32_f32_bf16_vulkan", "cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_sum(target):
    """shlo-bound-dispatch-operands failed on complex constants from 4336582 to 25f3f66."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("complex_sum", target) is None


def test_dot_batch_unsigned_fence_transposed_dots_cpu():
    assert replay("dot_batch_unsigned_fence_transposed_dots_cpu") is None


def test_argmax_rank0_split_arg_reduce_cpu():
    """shlo-split-arg-reduce raised an internal IndexError on a reduce over no dimensions."""
    assert replay("argmax_rank0_split_arg_reduce_cpu") is None


@pytest.mark.xfail(strict=True, reason="IREE 3.13 (also without shlo's passes): an argmin "
                   "reduce of a pad of a 2x0 argument (all constant) fails: 'jit global source "
                   "initialization order invalid: global __hoisted_tensor_3x2xf16 has no value'; "
                   "cpu and vulkan")
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_argmin_of_padded_empty(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("argmin_of_padded_empty_cpu", target) is None


@pytest.mark.xfail(strict=True, reason="vulkan: a program of a dynamic_update_slice, a "
                   "broadcast and a batched ui16 dot_general (61200-element operands) fails to "
                   "compile: a dispatch 'uses 244800 bytes of shared memory; exceeded the limit "
                   "of 32768 bytes' (the dot alone compiles)")
def test_dot_batch_unsigned_shared_memory_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dot_batch_unsigned_shared_memory_vulkan") is None


@pytest.mark.xfail(strict=True, reason="vulkan: a bf16 reduce_window of a 1-element window "
                   "with low padding 1 (a pad) fails to compile: 'failed to legalize unresolved "
                   "materialization' of memref<32xvector<4xf32>>")
def test_reduce_window_pad_bf16_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("reduce_window_pad_bf16_vulkan") is None


def test_reduce_window_pad_bf16_cpu():
    assert replay("reduce_window_pad_bf16_vulkan", "cpu") is None
