"""Bugs found by shlo-fuzz, one test each: the reproducer under test/fuzz_regressions/<name>
is replayed on its target and compared with the reference interpreter and XLA
(`shlo-fuzz --replay`). Each is a strict xfail until its owner fixes it (docs/fuzzing.md,
Findings)."""
import os

import pytest

from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz.runner import InProcess, Worker

# `make test-all` only (docs/testing.md); most fixed findings also have a test of their own.
pytestmark = pytest.mark.slow
HERE = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")


def replay(name: str, target: str | None = None, worker=None):
    return fuzz.replay(os.path.join(HERE, name), target, worker or InProcess())


@pytest.mark.parametrize("name", ["gather_of_strided_slice_cpu",
                                  "gather_of_dynamic_slice_of_strided_slice_cpu"])
@pytest.mark.every_case
def test_gather_of_strided_slice_cpu(name):
    """IREE 3.13 llvm-cpu failed to compile a gather from a strided slice, also through a
    dynamic_slice (LLVM Translation failed for builtin.unrealized_conversion_cast);
    shlo-fence-gathered-slices fences it."""
    assert replay(name) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_gather_of_strided_slice_large(target):
    """x[:, 1::3][:, idx] of a 512x3000 f32 matrix, 1000 data indices, against numpy."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = """func.func @main(%x: tensor<512x3000xf32>, %i: tensor<1000x1xi32>) -> tensor<1000x512xf32> {
  %a = stablehlo.slice %x [0:512, 1:3000:3] : (tensor<512x3000xf32>) -> tensor<512x1000xf32>
  %g = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1],
    collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>,
    indices_are_sorted = false, slice_sizes = array<i64: 512, 1>}>
    : (tensor<512x1000xf32>, tensor<1000x1xi32>) -> tensor<1000x512xf32>
  return %g : tensor<1000x512xf32>
}"""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 3000)).astype(np.float32)
    i = rng.integers(0, 1000, (1000, 1)).astype(np.int32)
    got = shlo.compile(text, target=target, cache=False)(x, i)
    assert np.array_equal(np.asarray(got), x[:, 1::3][:, i[:, 0]].T)


def test_gather_of_strided_slice_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("gather_of_strided_slice_cpu", "vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", ["dot_scalar_of_converted_slice_cpu_hang",
                                  "dot_scalar_of_argmin_cpu_hang"])
def test_dot_by_computed_scalar_cpu_hang(name, target):
    """A product by a scalar sliced from a flattened convert (i64[8,2,128] by convert(f32[2,2])
    [0]; i32[5,1] by a remainder of convert(i16[3,4,1,4])[0]): IREE 3.13's
    tile-and-distribute-to-workgroups never finished on the dispatch that sliced the convert
    (cpu and vulkan, also without shlo's passes); shlo-slice-before-elementwise converts the
    sliced element only, and it compiles in about a second."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay(name, target, worker=Worker(timeout_s=120)) is None


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


def test_convert_i32_f32_bf16_vulkan():
    """IREE 3.13 vulkan failed to compile the two converts in one dispatch ('spirv.Bitcast' op
    mismatch in result type bitwidth 16 and operand type bitwidth 32); vk-integer-to-bf16."""
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


@pytest.mark.parametrize("name", ["argmin_of_padded_empty_cpu", "pad_of_empty_bf16"])
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.every_case
def test_pad_of_empty(name, target):
    """IREE 3.13 hoisted a pad of an empty operand (all padding) into a global initializer
    and failed ('jit global source initialization order invalid', 'failed to legalize
    operation util.initializer'); shlo-expand-complex-pad makes it a broadcast."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay(name, target) is None


def test_dot_batch_unsigned_shared_memory_vulkan():
    """IREE 3.13 vulkan kept a whole i32 convert of ui16[100,17,9,4] in shared memory (244800
    bytes, limit 32768) in the dispatch that slices one element of it (a start index of the
    program's dynamic_update_slice): shlo-slice-before-elementwise slices before the convert."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dot_batch_unsigned_shared_memory_vulkan") is None



@pytest.mark.parametrize("narrow", ["bf16", "f16"])
@pytest.mark.every_case
def test_scatter_of_widened_bf16_large(narrow):
    """shlo-fuzz seed 24 program 123's failure, minimal: a select_and_scatter (window 3x1) of
    f32[64,1024] whose source is an f32 convert of a 16-bit slice; IREE 3.13 vulkan fused the
    whole convert into the dispatch of one 4096-update slice of its scatter ('uses 253952 bytes
    of shared memory'; 4186112 at [1024,1024]); vk-narrow-scatter-input. Against numpy."""
    import ml_dtypes
    import numpy as np
    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    n, m = 64, 62
    text = f"""func.func @main(%x: tensor<{n}x1024xf32>, %s: tensor<{n}x1024x{narrow}>) -> tensor<{n}x1024xf32> {{
  %c = stablehlo.slice %s [0:{m}, 0:1024] : (tensor<{n}x1024x{narrow}>) -> tensor<{m}x1024x{narrow}>
  %u = stablehlo.convert %c : (tensor<{m}x1024x{narrow}>) -> tensor<{m}x1024xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %u, %zero) <{{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }}, {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }}) : (tensor<{n}x1024xf32>, tensor<{m}x1024xf32>, tensor<f32>) -> tensor<{n}x1024xf32>
  return %r : tensor<{n}x1024xf32>
}}"""
    rng = np.random.default_rng(123)
    x = rng.permutation(n * 1024).reshape(n, 1024).astype(np.float32)    # no ties
    s = rng.integers(-64, 64, (n, 1024)).astype(
        ml_dtypes.bfloat16 if narrow == "bf16" else np.float16)
    got = np.asarray(shlo.compile(text, target="vulkan", cache=False)(x, s))
    windows = np.stack([x[0:m], x[1:m + 1], x[2:m + 2]])
    rows = np.arange(m)[:, None] + np.argmin(windows, axis=0)          # the first minimum
    want = np.zeros((n, 1024), np.float32)
    np.add.at(want, (rows, np.broadcast_to(np.arange(1024), rows.shape)),
              s[:m].astype(np.float32))
    np.testing.assert_array_equal(got, want)


@pytest.mark.slow
def test_fuzz_seed_24_program_123_vulkan():
    """The whole program (rng_bit_generator, fft, select_and_scatter of a widened bf16 source,
    sort; 1M elements) on vulkan against XLA, regenerated from its seed (its inputs are 3 MB)."""
    from conftest import vulkan_or_skip
    from shlo.tools.fuzz import program as P
    vulkan_or_skip()
    fuzzer = fuzz.Fuzzer(["vulkan"], InProcess(), oracles=("xla",))
    try:
        checked = fuzzer.check(P.random_program("24:123", 1 << 22, 8))
    finally:
        fuzzer.close()
    assert not checked.findings, [f.detail[:500] for f in checked.findings]


def test_reduce_window_pad_bf16_vulkan():
    """IREE 3.13 vulkan failed to compile a padded bf16 reduce_window widened to f32 ('failed to
    legalize unresolved materialization' of memref<32xvector<4xf32>>); vk-bf16-widened-pad."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("reduce_window_pad_bf16_vulkan") is None


def test_reduce_window_pad_bf16_cpu():
    assert replay("reduce_window_pad_bf16_vulkan", "cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_convolution_dilated(target):
    """IREE 3.13's compiler crashed (SIGSEGV) on a complex<f32> convolution with a dilated
    kernel and permuted layouts; shlo-expand-complex-dot makes it four real ones."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("complex_convolution_dilated", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rng_normal_f16(target):
    """IREE 3.13 compiled a NORMAL rng only for f32 ('stablehlo.broadcast' op requires the
    same element type); shlo-expand-integer-rng scales an f32 one."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("rng_normal_f16", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rng_normal_of_every_float_type_is_normal(target):
    """f16, bf16 and f64 NORMAL rngs of 2^16 elements (mu and sigma runtime arguments):
    finite, mean and standard deviation within a few standard errors of mu and sigma."""
    import ml_dtypes
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    n = 1 << 16
    types = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}
    text = "\n".join(
        f"func.func @{t}(%mu: tensor<{t}>, %sigma: tensor<{t}>) -> tensor<256x256x{t}> {{\n"
        f"  %s = stablehlo.constant dense<[256, 256]> : tensor<2xi64>\n"
        f"  %0 = stablehlo.rng %mu, %sigma, %s, distribution = NORMAL : (tensor<{t}>, "
        f"tensor<{t}>, tensor<2xi64>) -> tensor<256x256x{t}>\n"
        f"  return %0 : tensor<256x256x{t}>\n}}" for t in types)
    exe = shlo.compile(text, target=target, cache=False)
    for t, dtype in types.items():
        got = np.asarray(exe.function(t)(dtype(3.0), dtype(2.0))).astype(np.float64)
        assert got.shape == (256, 256) and np.isfinite(got).all(), t
        assert abs(got.mean() - 3.0) < 5 * 2.0 / np.sqrt(n) + 0.02, (t, got.mean())
        assert abs(got.std() - 2.0) < 0.05, (t, got.std())


def test_reduce_window_broadcast_vulkan():
    """IREE 3.13 vulkan (also without shlo's passes): a reduce_window (window 2, any reducer) of
    64-130 elements whose 33 or 65 results a broadcast_in_dim spreads over a new leading
    dimension of 2+: outputs 8-15 came back 0, silently; vk-window-broadcast."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("reduce_window_broadcast_vulkan") is None


def test_reduce_window_broadcast_cpu():
    assert replay("reduce_window_broadcast_vulkan", "cpu") is None


def _grouped_convolutions(t: str, widened: bool = False) -> str:
    """2x8x32x32 by 8x2x3x3 convolutions (4 groups, padding 1) of `t` (`widened`: converted
    to f32, convolved, converted back)."""
    x, w, out = (f"tensor<{s}x{t}>" for s in ("2x8x32x32", "8x2x3x3", "2x8x32x32"))
    e = "f32" if widened else t
    body = (f"  %a = stablehlo.convert %x : ({x}) -> tensor<2x8x32x32xf32>\n"
            f"  %b = stablehlo.convert %w : ({w}) -> tensor<8x2x3x3xf32>\n" if widened else
            "")
    a, b = ("%a", "%b") if widened else ("%x", "%w")
    body += (f"  %0 = stablehlo.convolution({a}, {b}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->"
             f"[b, f, 0, 1], window = {{pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, "
             f"feature_group_count = 4 : i64}} : (tensor<2x8x32x32x{e}>, tensor<8x2x3x3x{e}>) "
             f"-> tensor<2x8x32x32x{e}>\n")
    if widened:
        body += f"  %1 = stablehlo.convert %0 : (tensor<2x8x32x32xf32>) -> {out}\n"
    return (f"func.func @{t}(%x: {x}, %w: {w}) -> {out} {{\n{body}"
            f"  return {'%1' if widened else '%0'} : {out}\n}}")


def _check_grouped_convolutions(target: str, widened: bool = False) -> None:
    """f16 and bf16 grouped convolutions against numpy in f64 (one rounding of the result)."""
    import ml_dtypes
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    types = {"f16": (np.float16, 2.0 ** -10), "bf16": (ml_dtypes.bfloat16, 2.0 ** -7)}
    text = "\n".join(_grouped_convolutions(t, widened) for t in types)
    exe = shlo.compile(text, target=target, cache=False)
    rng = np.random.default_rng(0)
    for t, (dtype, eps) in types.items():
        x = rng.standard_normal((2, 8, 32, 32)).astype(dtype)
        w = rng.standard_normal((8, 2, 3, 3)).astype(dtype)
        got = np.asarray(exe.function(t)(x, w)).astype(np.float64)
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))
        want = np.concatenate([np.einsum("nchwij,ocij->nohw", win[:, 2 * g:2 * g + 2],
                                         w[2 * g:2 * g + 2].astype(np.float64))
                               for g in range(4)], axis=1)
        err = np.abs(got - want) / (np.abs(want) + 0.01 * np.abs(want).max())
        assert err.max() <= eps, (t, err.max())


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_grouped_narrow_convolution(target):
    """f16 and bf16 convolutions with feature groups: shlo-accumulate-in-f32's f32 result
    failed to compile on Vulkan ('tensor.collapse_shape' expected tensor<4x4xf16>, got
    tensor<4x4xf32>); its f32 operands are fenced (fused converts were computed wrongly)."""
    _check_grouped_convolutions(target)


def test_grouped_convolution_f16_vulkan():
    """The shrunk finding of the compile failure above."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("grouped_convolution_f16_vulkan") is None


def test_grouped_convolution_of_widened_narrow_vulkan():
    """IREE 3.13 vulkan: f16/bf16 -> f32 converts fused into a grouped f32 convolution gave 16
    (f16) to 3213 (bf16) wrong results of 32768, silently; vk-grouped-convolution fences them."""
    _check_grouped_convolutions("vulkan", widened=True)


def test_grouped_convolution_of_widened_narrow_cpu():
    _check_grouped_convolutions("cpu", widened=True)


def test_complex_sum_long_vulkan():
    """shlo-split-long-reduce{max-length=4096} (vulkan) cut a complex<f32> sum of 31x4x8x6
    (5952 elements) into blocks with a complex pad, on which IREE's compiler crashed (SIGSEGV);
    the parts are padded apart now."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("complex_sum_long_vulkan", worker=Worker(timeout_s=300)) is None


def test_complex_sum_long_cpu():
    assert replay("complex_sum_long_vulkan", "cpu") is None


def test_reduce_no_dims_split_long_reduce_cpu():
    """shlo-split-long-reduce raised an internal error ('max() arg is an empty sequence') on a
    reduce over no dimensions from 9739ffb to fe4492e."""
    assert replay("reduce_no_dims_split_long_reduce_cpu") is None


def test_reduce_no_dims_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("reduce_no_dims_split_long_reduce_cpu", "vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_scatter_of_own_slice(target):
    """IREE 3.13 (also without shlo's passes) failed to compile a scatter of i8[3,1] whose
    updates are a slice of its own operand; shlo-copy-overlapping-updates copies them."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("scatter_of_own_slice", target) is None


def test_scatter_of_own_operand_u8_vulkan():
    """IREE 3.13 vulkan failed to compile a ui8 scatter's indices, convert(x) % 4 of 8 elements
    ('bitwidth emulation is not implemented yet on unsigned op pattern version': the remainder
    made unsigned on a vector<1>); vk-negated-divisor."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("scatter_of_own_operand_u8_vulkan") is None


def test_scatter_of_own_operand_u8_cpu():
    assert replay("scatter_of_own_operand_u8_vulkan", "cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_fft_length_one(target):
    """An fft over an axis of length 1 is the identity there: shlo-expand-fft left a complex
    FFT of length 1, which IREE failed to compile; the shrunk finding and 2^18-element ffts
    with a length-1 axis (FFT, RFFT, IRFFT) against numpy."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("fft_length_one", target) is None
    c, f = "complex<f32>", "f32"
    text = f"""
func.func @fft(%x: tensor<64x1x4096x{c}>) -> tensor<64x1x4096x{c}> {{
  %0 = stablehlo.fft %x, type = FFT, length = [1, 4096] : (tensor<64x1x4096x{c}>) -> tensor<64x1x4096x{c}>
  return %0 : tensor<64x1x4096x{c}>
}}
func.func @rfft(%x: tensor<64x4096x1x{f}>) -> tensor<64x4096x1x{c}> {{
  %0 = stablehlo.fft %x, type = RFFT, length = [4096, 1] : (tensor<64x4096x1x{f}>) -> tensor<64x4096x1x{c}>
  return %0 : tensor<64x4096x1x{c}>
}}
func.func @irfft(%x: tensor<64x1x2049x{c}>) -> tensor<64x1x4096x{f}> {{
  %0 = stablehlo.fft %x, type = IRFFT, length = [1, 4096] : (tensor<64x1x2049x{c}>) -> tensor<64x1x4096x{f}>
  return %0 : tensor<64x1x4096x{f}>
}}"""
    exe = shlo.compile(text, target=target, cache=False)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 1, 4096)) + 1j * rng.standard_normal((64, 1, 4096))
    r = rng.standard_normal((64, 4096, 1))
    h = np.fft.rfft(rng.standard_normal((64, 1, 4096)), axis=-1)
    for name, arg, want in (("fft", x.astype(np.complex64), np.fft.fftn(x, axes=(1, 2))),
                            ("rfft", r.astype(np.float32), np.fft.rfftn(r, axes=(1, 2))),
                            ("irfft", h.astype(np.complex64), np.fft.irfftn(h, (1, 4096),
                                                                             axes=(1, 2)))):
        got = np.asarray(exe.function(name)(arg))
        assert got.shape == want.shape, name
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max() * 12, name


def test_rsqrt_negative_zero_vulkan():
    """IREE 3.13 vulkan (also without shlo's passes): is_finite(rsqrt(-0.0)) fused into one
    dispatch was true, so a program that zeroes non-finite values kept -inf and its IFFT was
    1e29 off, silently; vk-signed-zero-root."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("rsqrt_negative_zero_vulkan") is None


def test_rsqrt_negative_zero_cpu():
    assert replay("rsqrt_negative_zero_vulkan", "cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_convolution_dilated_strided(target):
    """Seed 52 program 96 (vulkan): a ui8 one-output convolution with rhs dilation and
    padding gave 0 where XLA gives 4, also without shlo's passes; vk-few-output-convolution
    computes it as a dot_general over its window, a strided slice behind a fusion barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("convolution_dilated_strided_vulkan", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_convolution_padded(target):
    """Seed 53 program 35 (found on vulkan, failed on cpu too): a complex convolution of a pad
    (by 0) of a pad (by 1 - 2i) failed to compile ('write affecting operations on global
    resources are restricted to workgroup distributed contexts'), as any pad of a computed
    value's pad by another value does; shlo-merge-edge-pads fences the inner pad."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("complex_convolution_padded_vulkan", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", ["self_difference_bf16_vulkan",
                                  "select_and_scatter_unit_stride_vulkan",
                                  "complex_constant_difference_vulkan",
                                  "f64_remainder_of_itself_vulkan",
                                  "f64_convolution_complex_vulkan", "min_reduce_nan_vulkan",
                                  "slice_of_converted_boolean_shared_memory_vulkan",
                                  "while_of_convolution_queue_copy_vulkan",
                                  "bf16_min_reduce_shared_memory_vulkan"])
def test_vulkan_seed_50_findings(name, target):
    """IREE 3.13 vulkan (also without shlo's passes): a bf16 x - x was 0 where x is NaN (seed
    50 program 70; vk-self-difference); a select_and_scatter of 1x3 windows failed to compile
    its unit-size strided slices (program 222; vk-unit-strided-slice). Seed 51 program 41: a
    complex constant subtracted in a case branch was an internal error of vk-self-difference
    (the bindings cannot read complex attributes). Seed 50 program 105: x % x of f64[2] failed
    at run time ("transient buffer has no staged Vulkan backing": the f64 fmod loops' zero
    trips; fixed by shlo-barrier-loop-results, 1ee05cc); program 118: an f64 convolution read
    by a convert and a complex raced (vk-f64-product-result); seed 51 program 244: a min
    reduce of 32768 f32 with NaN gave +inf (vk-nan-min-max-reduce). Fixed by others since
    the run's snapshot: seed 50 program 184, one element of an f32 convert of i1[3,5208] kept
    whole in shared memory (62528 bytes; shlo-slice-before-elementwise, 1cb344f), and program
    182, a zero-trip while loop over a convolution's result ("Vulkan queue copy source buffer
    has been queued for deallocation"; shlo-barrier-loop-results, 1ee05cc). Seed 52 program
    299: vk-nan-min-max-reduce's NaN flags of a bf16 min reduce fused with its f32 convert
    overflowed vulkan shared memory (32784 bytes); the input is now fenced first."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay(name, target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", ["map_self_difference_vulkan", "window_of_empty_operand_vulkan"])
@pytest.mark.every_case
def test_vulkan_seed_54_findings(name, target):
    """IREE 3.13 vulkan (also without shlo's passes): seed 54 program 84, -(a - b) in a map's
    body over real(z) twice was -0 where z's real part is NaN (vk-elementwise-map); seed 55
    program 170, a min reduce_window of i32[0, 0, 0, 1] over its padding failed to compile
    ('memref.copy' to workgroup memory; vk-empty-window-operand)."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay(name, target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_variadic_reduce_transposed_result(target):
    """Seed 54 program 122 (found on vulkan, failed on cpu too, also without shlo's passes):
    the argmax of f32[1, 2, 2, 4] over dimensions [0, 3], its index transposed (8x3x5x4
    alike); fixed by shlo-fence-transposed-variadic-reduces."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("variadic_reduce_transposed_result_vulkan", target) is None


def test_batch_norm_second_call_vulkan():
    """Seed 56 program 7 (found as 'fails only when compiled with others'): three calls of one
    vulkan executable against the cpu."""
    import numpy as np

    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    here = os.path.join(HERE, "batch_norm_second_call_vulkan")
    text = open(os.path.join(here, "program.mlir")).read()
    args = [np.load(os.path.join(here, f"input_{i}.npy")) for i in range(2)]
    want = np.asarray(shlo.compile(text, target="cpu", cache=False)(*args))
    exe = shlo.compile(text, target="vulkan", cache=False)
    for call in range(3):
        np.testing.assert_allclose(np.asarray(exe(*args)), want, rtol=1e-5, atol=1e-6,
                                   err_msg=f"call {call}")


def test_argsort_of_fft_ties_vulkan():
    """Seed 56 program 4 (a fuzzer false alarm): a stable argsort over 25 rows of
    irfft(rfft(x) / w) of booleans, whose columns hold values equal in exact arithmetic: two
    ties flipped by rounding on vulkan (4 of 150 indices; XLA's and the CPU's values differ
    from vulkan's by 3e-8). The argsort is fragile; its allowance is now max(4, 1%)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("argsort_of_fft_ties_vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_pad_of_f16(target):
    """shlo-expand-complex-pad pads a complex value's parts; Vulkan failed to compile those
    pads with the f16 -> f32 convert fused in (now behind fusion barriers). The shrunk finding
    and a 512x1000 f16 -> complex pad (interior 2) against numpy."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("complex_pad_of_f16_vulkan", target) is None
    text = """func.func @main(%x: tensor<512x1000xf16>) -> tensor<513x3000xcomplex<f32>> {
  %c = stablehlo.convert %x : (tensor<512x1000xf16>) -> tensor<512x1000xcomplex<f32>>
  %v = stablehlo.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  %p = stablehlo.pad %c, %v, low = [0, 1], high = [1, 1], interior = [0, 2] : (tensor<512x1000xcomplex<f32>>, tensor<complex<f32>>) -> tensor<513x3000xcomplex<f32>>
  return %p : tensor<513x3000xcomplex<f32>>
}"""
    x = np.random.default_rng(0).standard_normal((512, 1000)).astype(np.float16)
    want = np.full((513, 3000), 1 - 2j, np.complex64)
    want[:512, 1:3000:3] = x
    got = shlo.compile(text, target=target, cache=False)(x)
    assert np.array_equal(np.asarray(got), want)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dot_empty_contraction(target):
    """IREE 3.13's Vulkan compiler crashed (SIGFPE) on a dot_general over an empty contraction;
    shlo-legalize-dot-algorithm makes it the zeros it is (also at 1024x2048)."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("dot_empty_contraction_vulkan", target, worker=Worker(timeout_s=300)) is None
    text = """func.func @main(%a: tensor<1024x0xf32>, %b: tensor<0x2048xf32>) -> tensor<1024x2048xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x0xf32>, tensor<0x2048xf32>) -> tensor<1024x2048xf32>
  return %0 : tensor<1024x2048xf32>
}"""
    got = shlo.compile(text, target=target, cache=False)(np.zeros((1024, 0), np.float32),
                                                          np.zeros((0, 2048), np.float32))
    assert np.array_equal(np.asarray(got), np.zeros((1024, 2048), np.float32))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_convolution_empty(target):
    """A convolution of an empty operand failed to compile on Vulkan after shlo's passes;
    shlo-legalize-convolution makes it the zeros it is (also 8x0x64x64 by 16x0x3x3)."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("convolution_empty_vulkan", target) is None
    text = """func.func @main(%x: tensor<8x0x64x64xf32>, %w: tensor<16x0x3x3xf32>) -> tensor<8x16x62x62xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x0x64x64xf32>, tensor<16x0x3x3xf32>) -> tensor<8x16x62x62xf32>
  return %0 : tensor<8x16x62x62xf32>
}"""
    got = shlo.compile(text, target=target, cache=False)(np.zeros((8, 0, 64, 64), np.float32),
                                                          np.zeros((16, 0, 3, 3), np.float32))
    assert np.array_equal(np.asarray(got), np.zeros((8, 16, 62, 62), np.float32))


def test_dynamic_update_slice_own_copy_vulkan():
    """shlo-copy-overlapping-updates' old rewrite (dynamic_slice of a pad) of a 3-D
    dynamic_update_slice(x, slice(x), i) failed to compile on vulkan ('memref.collapse_shape'
    op expected ... workgroup memory); the update is now written into a splat."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dynamic_update_slice_own_copy_vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dynamic_update_slice_own_copy_3d_large(target):
    """The rewritten 3-D own-slice update at real size, f32[64,64,16] (56x12x1 from x's first
    672 elements), starts in range, clamped and negative, against numpy."""
    import numpy as np
    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = """func.func @main(%a: tensor<65536xf32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i32>) -> tensor<64x64x16xf32> {
  %n = stablehlo.negate %a : tensor<65536xf32>
  %x = stablehlo.reshape %n : (tensor<65536xf32>) -> tensor<64x64x16xf32>
  %f = stablehlo.reshape %x : (tensor<64x64x16xf32>) -> tensor<65536xf32>
  %s = stablehlo.slice %f [0:672] : (tensor<65536xf32>) -> tensor<672xf32>
  %u = stablehlo.reshape %s : (tensor<672xf32>) -> tensor<56x12x1xf32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %j, %k : (tensor<64x64x16xf32>, tensor<56x12x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<64x64x16xf32>
  return %r : tensor<64x64x16xf32>
}"""
    exe = shlo.compile(text, target=target, cache=False)
    a = np.random.default_rng(3).standard_normal(65536).astype(np.float32)
    x = -a.reshape(64, 64, 16)
    for start in [(2, 7, -1), (0, 0, 0), (8, 52, 15), (5, 60, 20), (-4, 30, 9)]:
        want = x.copy()
        i, j, k = (min(max(s, 0), n - m) for s, n, m in zip(start, (64, 64, 16), (56, 12, 1)))
        want[i:i + 56, j:j + 12, k:k + 1] = x.reshape(-1)[:672].reshape(56, 12, 1)
        got = exe(a, *(np.int32(s) for s in start))
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"start {start}")


def test_dynamic_update_slice_own_copy_cpu():
    assert replay("dynamic_update_slice_own_copy_vulkan", "cpu") is None


def test_slice_of_converted_stack_cpu():
    """Two words sliced from a flattened i64 convert of f32[8,17,8,5] seed two
    rng_bit_generators: IREE kept the whole converted tensor on a dispatch's stack ('exceeded
    stack allocation limit'); shlo-slice-before-elementwise slices before converting."""
    assert replay("slice_of_converted_stack_cpu") is None


def test_convolution_s8_dilated_vulkan():
    """An s8 convolution (stride 2, padding 1, lhs and rhs dilation 2) of a signed max reduce
    had 94 of 125 results wrong on Vulkan, silently; vk-signed-min-max-reduce now stores its
    result (and a reduce over no dimension is an elementwise max)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("convolution_s8_dilated_vulkan") is None


def test_convolution_s8_dilated_cpu():
    assert replay("convolution_s8_dilated_vulkan", "cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_while_zero_trips_transient_buffer(target, tmp_path):
    """Seed 24 program 116, shrunk by hand: a while loop carrying the argument and a trip count
    computed from it, with zero trips. IREE 3.13's runtime failed 30-100% of runs ('transient
    buffer has not been committed' in hal.device.queue.dealloca; vulkan: 'has no staged Vulkan
    backing'): its reference counting deallocated the loop's results, at zero trips the
    entry buffers; shlo-barrier-loop-results reads them through a barrier. 20 fresh
    iree-run-module processes (the failure is a race), each must give [[-3, 0]]."""
    import subprocess
    import sysconfig

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    with open(os.path.join(HERE, "while_zero_trips_transient_buffer", "program.mlir")) as f:
        exe = shlo.compile(f.read(), target=target)
    vmfb = str(tmp_path / "p.vmfb")
    exe.save(vmfb)
    tool = os.path.join(sysconfig.get_path("scripts"), "iree-run-module")
    device = "local-task" if target == "cpu" else "vulkan"
    for _ in range(20):
        run = subprocess.run([tool, f"--module={vmfb}", f"--device={device}",
                              "--input=1xf32=-3.7"], capture_output=True, text=True)
        assert run.returncode == 0 and "1x2xi32=[-3 0]" in run.stdout, run.stderr[-300:]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dynamic_update_slice_of_returned_argument(target):
    """A function returning its argument x and dynamic_update_slice(x, u, i): IREE wrote the
    update in place into x's buffer and returned the updated x (20 of 24 wrong, silently);
    shlo-barrier-returned-arguments returns x through a barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("dynamic_update_slice_of_returned_argument", target) is None
    assert replay("dynamic_update_slice_of_returned_argument", target) is None


def test_slice_of_rank0_convert():
    """shlo-slice-before-elementwise kept the scalar clamp bounds of a rank-0 chain unsliced
    when slicing its one reshaped element ('stablehlo.convert' op requires the same shape;
    seed 30 program 64)."""
    assert replay("slice_of_rank0_convert") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("element, lo, hi", [("bf16", -100.0, 900.0), ("f16", -100.0, 900.0),
                                             ("f32", -100.0, -99.5)])
def test_rng_uniform_narrow_float(element, lo, hi, target):
    """Seed 30 program 173 (bf16 values equal to b; XLA's CPU gives b for bf16 and, seed 64
    program 1083, for f32 [-100, -99.5)): every value of a 512x512 UNIFORM rng of [lo, hi)
    lies in [lo, hi)."""
    import numpy as np

    import shlo
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    text = f"""func.func @main(%d: tensor<f32>) -> tensor<512x512x{element}> {{
  %lo = stablehlo.constant dense<{lo:e}> : tensor<{element}>
  %hi = stablehlo.constant dense<{hi:e}> : tensor<{element}>
  %shape = stablehlo.constant dense<[512, 512]> : tensor<2xi64>
  %r = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<{element}>, tensor<{element}>, tensor<2xi64>) -> tensor<512x512x{element}>
  return %r : tensor<512x512x{element}>
}}"""
    values = np.asarray(shlo.compile(text, target=target)(np.float32(0))).astype(np.float64)
    inside = (values >= lo) & (values < hi)
    assert inside.all(), f"{int((~inside).sum())} of {values.size} outside [{lo}, {hi})"


def test_reduce_window_fence_small_reductions_cpu():
    """shlo-fence-small-reductions read a padded sum reduce_window of f32[1] (window 3, low
    padding 2) as a reduce (an internal KeyError; seed 30 programs 397, 399, 451)."""
    assert replay("reduce_window_fence_small_reductions_cpu") is None


def test_reduce_window_fence_small_reductions_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("reduce_window_fence_small_reductions_cpu", "vulkan") is None


def test_select_and_scatter_stack_cpu():
    """shlo-expand-select-and-scatter's strided window slices of an elementwise chain over
    u8[5,2,9,100]: IREE kept the whole chain on one dispatch's stack ('exceeded stack
    allocation limit ... 36032 bytes'; seed 30 program 400); shlo-slice-before-elementwise
    slices its operands."""
    assert replay("select_and_scatter_stack_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sort_of_returned_argument(target):
    """A function returning its argument x and a sort of x (a TOTALORDER comparator IREE
    sorts): IREE sorted in place into x's buffer and returned a sorted x (53 of 81 wrong,
    silently); shlo-barrier-returned-arguments returns x through a barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("sort_of_returned_argument", target) is None


def test_boolean_slice_convolution_kernel_cpu():
    """shlo-slice-before-elementwise sliced a boolean argument before its i32 convert, and
    IREE failed to compile the i1 slice as a convolution's data-tiled kernel ('failed to
    legalize unresolved target materialization'; seed 30 program 614)."""
    assert replay("boolean_slice_convolution_kernel_cpu") is None


def test_select_and_scatter_overlapping_windows_stack_cpu():
    """A window-2, stride-1 select_and_scatter over f32[16384] whose source is a convert of
    f16: IREE's cpu backend fused the convert into the scatter of
    shlo-expand-select-and-scatter and kept the whole converted source on the stack ('exceeded
    stack allocation limit ... Got 65536 bytes'; seed 30 program 656); the pass now computes
    a computed source in dispatches of its own."""
    assert replay("select_and_scatter_overlapping_windows_stack_cpu") is None


def test_dynamic_update_slice_complex_returned_argument():
    """A complex dynamic_update_slice of a returned argument by its own slice: the select rule
    c5061ed added to shlo-copy-overlapping-updates did not converge ('pattern application
    failed to converge'; seed 30 program 619); shlo-barrier-returned-arguments covers it."""
    assert replay("dynamic_update_slice_complex_returned_argument") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sort_of_argument_returned_through_select(target):
    """A function returning select(x >= x, x, x) (IREE folds it to x) and a sort of x: IREE
    sorted x's buffer in place and returned it sorted (4 of 5 wrong; seed 31 program 606);
    shlo-barrier-returned-arguments looks through such a select."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("sort_of_argument_returned_through_select", target) is None


def test_dot_scalar_of_converted_boolean_hang():
    """A product by one element sliced from a flattened convert of a boolean argument: IREE's
    compile never ended on the dispatch slicing one element of the whole select(b, 1, 0)
    (seed 31 program 465); shlo-slice-before-elementwise now slices the boolean first when
    the slice keeps a few elements."""
    assert replay("dot_scalar_of_converted_boolean_hang", worker=Worker(timeout_s=60)) is None


def _complex_constant_product(target: str) -> None:
    import numpy as np

    import shlo
    with open(os.path.join(HERE, "complex_constant_vulkan", "program.mlir")) as f:
        exe = shlo.compile(f.read(), target=target)
    x = (np.arange(5) - 2 + 1j * np.arange(5)).astype(np.complex64)
    c = np.array([0.5 + 1j, 1 / 3, 0.25, 0.2 - 2j, 1 / 6], np.complex64)
    np.testing.assert_allclose(np.asarray(exe(x)), x * c, rtol=1e-6)


def test_complex_constant_vulkan():
    """A non-splat complex<f32> constant failed to compile on Vulkan ('failed to legalize
    operation arith.constant'), also without shlo's passes: vk-complex-constant."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    _complex_constant_product("vulkan")


def test_complex_constant_cpu():
    _complex_constant_product("cpu")


def _target_or_skip(target: str) -> None:
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


def test_select_and_scatter_boolean_source_stack_cpu():
    """IREE 3.13 llvm-cpu fused the operand's convert of an i1 argument into the dispatch of
    the window slices of shlo-expand-select-and-scatter (65536 bytes of stack for
    8x2048); the computed operand now goes through a fusion barrier; seed 43 program 85."""
    assert replay("select_and_scatter_boolean_source_stack_cpu") is None


@pytest.mark.parametrize("target,rows", [("cpu", 512), ("vulkan", 8)])
def test_select_and_scatter_of_converted_booleans(target, rows):
    """A 2x3-window, stride (2, 1) select_and_scatter of convert(b) + y over f32[rows, 2048]
    (1M elements on cpu: 4 MiB of stack before the fix), its source a reshaped slice of a
    converted boolean, against numpy (first maximum of each window; the sums are exact)."""
    import numpy as np

    import shlo
    _target_or_skip(target)
    r, c = rows, 2048
    ro, co = r // 2, c - 2
    t, s = f"tensor<{r}x{c}xf32>", f"tensor<{ro}x{co}xf32>"
    text = f"""func.func @main(%b: tensor<{r}x{c}xi1>, %y: {t}, %m: tensor<{r}x{c}xi1>) -> {t} {{
  %0 = stablehlo.convert %b : (tensor<{r}x{c}xi1>) -> {t}
  %1 = stablehlo.add %0, %y : {t}
  %2 = stablehlo.convert %m : (tensor<{r}x{c}xi1>) -> {t}
  %3 = stablehlo.reshape %2 : ({t}) -> tensor<{r * c}xf32>
  %4 = stablehlo.slice %3 [0:{ro * co}] : (tensor<{r * c}xf32>) -> tensor<{ro * co}xf32>
  %5 = stablehlo.reshape %4 : (tensor<{ro * co}xf32>) -> {s}
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %6 = "stablehlo.select_and_scatter"(%1, %5, %z) <{{window_dimensions = array<i64: 2, 3>,
      window_strides = array<i64: 2, 1>}}> ({{
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %7 = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %7 : tensor<i1>
  }}, {{
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %7 = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %7 : tensor<f32>
  }}) : ({t}, {s}, tensor<f32>) -> {t}
  return %6 : {t}
}}"""
    rng = np.random.default_rng(1)
    b, m = rng.random((r, c)) < 0.5, rng.random((r, c)) < 0.5
    y = rng.integers(0, 4, (r, c)).astype(np.float32)
    x, src = b + y, m.reshape(-1)[:ro * co].reshape(ro, co).astype(np.float32)
    windows = [(i, j) for i in range(2) for j in range(3)]
    values = np.stack([x[i:i + 2 * ro:2, j:j + co] for i, j in windows])
    flat = np.stack([(np.arange(ro)[:, None] * 2 + i) * c + np.arange(co) + j
                     for i, j in windows])
    chosen = np.take_along_axis(flat, np.argmax(values, axis=0)[None], 0)[0]
    want = np.zeros(r * c, np.float32)
    np.add.at(want, chosen.ravel(), src.ravel())
    got = shlo.compile(text, target=target, cache=False)(b, y, m)
    np.testing.assert_array_equal(np.asarray(got), want.reshape(r, c))


def test_scatter_of_converted_updates_stack_cpu():
    """IREE 3.13 llvm-cpu fused a convert of the updates (ui16 to i32, 16384 of them) into the
    scatter's dispatch and kept it on the stack; shlo-canonicalize-scatter now sends
    computed updates through a fusion barrier; seed 44 program 88."""
    assert replay("scatter_of_converted_updates_stack_cpu") is None


@pytest.mark.parametrize("target,k", [("cpu", 4096), ("vulkan", 256)])
def test_scatter_add_of_converted_rows(target, k):
    """An embedding-gradient-like scatter-add of k rows of 256 f16-to-f32 converted updates
    into f32[1024, 256] (1M updates on cpu: 4 MiB of stack before the fix), repeated row
    indices, against numpy (integer values: the sums are exact)."""
    import numpy as np

    import shlo
    _target_or_skip(target)
    text = f"""func.func @main(%x: tensor<1024x256xf32>, %i: tensor<{k}x1xi32>,
    %u: tensor<{k}x256xf16>) -> tensor<1024x256xf32> {{
  %c = stablehlo.convert %u : (tensor<{k}x256xf16>) -> tensor<{k}x256xf32>
  %0 = "stablehlo.scatter"(%x, %i, %c) <{{scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }}) : (tensor<1024x256xf32>, tensor<{k}x1xi32>, tensor<{k}x256xf32>) -> tensor<1024x256xf32>
  return %0 : tensor<1024x256xf32>
}}"""
    rng = np.random.default_rng(2)
    x = rng.integers(-100, 100, (1024, 256)).astype(np.float32)
    i = rng.integers(0, 1024, (k, 1)).astype(np.int32)
    u = rng.integers(0, 1000, (k, 256)).astype(np.float16)
    want = x.copy()
    np.add.at(want, i[:, 0], u.astype(np.float32))
    got = shlo.compile(text, target=target, cache=False)(x, i, u)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("target,k", [("cpu", 1 << 20), ("vulkan", 16384)])
def test_scatter_add_at_converted_indices(target, k):
    """A scatter-add of k f32 values at indices converted from ui16 (half of them out of
    bounds, dropped), against numpy: the convert fused into the scatter needed 65536 bytes of
    stack on cpu for 16384 points, 4 MiB for 1M, before shlo-canonicalize-scatter fenced
    indices computed from 16-bit numbers."""
    import numpy as np

    import shlo
    _target_or_skip(target)
    text = f"""func.func @main(%x: tensor<4096xf32>, %i: tensor<{k}xui16>, %u: tensor<{k}xf32>)
    -> tensor<4096xf32> {{
  %c = stablehlo.convert %i : (tensor<{k}xui16>) -> tensor<{k}xi32>
  %r = stablehlo.reshape %c : (tensor<{k}xi32>) -> tensor<{k}x1xi32>
  %0 = "stablehlo.scatter"(%x, %r, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }}) : (tensor<4096xf32>, tensor<{k}x1xi32>, tensor<{k}xf32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}}"""
    rng = np.random.default_rng(5)
    x = rng.integers(-100, 100, 4096).astype(np.float32)
    i = rng.integers(0, 8192, k).astype(np.uint16)
    u = rng.integers(-100, 100, k).astype(np.float32)
    want = x.copy()
    np.add.at(want, i[i < 4096], u[i < 4096])
    got = shlo.compile(text, target=target, cache=False)(x, i, u)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_sort_of_rows_padded_cpu():
    """IREE 3.13 llvm-cpu: a sort (here along a dimension of size 1) whose result a padded
    reduce_window reads failed to compile ('write affecting operations on global resources
    are restricted to workgroup distributed contexts'); shlo-fence-sort-slices now fences
    such results; seed 44 program 242."""
    assert replay("sort_of_rows_padded_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sorted_rows_padded_and_updated(target):
    """jnp.pad(sort(x, axis=1)) of f32[16384, 4] and a dynamic_update_slice of f32[2, 8192]
    sorted along its first dimension into a larger tensor (both IREE's own sort, shorter than
    shlo-lower-sort's network), against numpy: both failed to compile on cpu."""
    import numpy as np

    import shlo
    _target_or_skip(target)

    def sort(name, t, dim):
        return f"""%{name} = "stablehlo.sort"(%{name}_in) <{{dimension = {dim} : i64}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }}) : ({t}) -> {t}"""
    text = f"""func.func @main(%x: tensor<16384x4xf32>, %y: tensor<2x8192xf32>)
    -> (tensor<16385x5xf32>, tensor<8x8192xf32>) {{
  %p_in = stablehlo.abs %x : tensor<16384x4xf32>
  {sort("p", "tensor<16384x4xf32>", 1)}
  %seven = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = stablehlo.pad %p, %seven, low = [1, 0], high = [0, 1], interior = [0, 0]
      : (tensor<16384x4xf32>, tensor<f32>) -> tensor<16385x5xf32>
  %u_in = stablehlo.negate %y : tensor<2x8192xf32>
  {sort("u", "tensor<2x8192xf32>", 0)}
  %big = stablehlo.constant dense<7.0> : tensor<8x8192xf32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.dynamic_update_slice %big, %u, %two, %zero
      : (tensor<8x8192xf32>, tensor<2x8192xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8192xf32>
  return %0, %1 : tensor<16385x5xf32>, tensor<8x8192xf32>
}}"""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((16384, 4)).astype(np.float32)
    y = rng.standard_normal((2, 8192)).astype(np.float32)
    padded, updated = shlo.compile(text, target=target, cache=False)(x, y)
    want = np.pad(-np.sort(-np.abs(x), axis=1), [(1, 0), (0, 1)], constant_values=7.0)
    np.testing.assert_array_equal(np.asarray(padded), want)
    want = np.full((8, 8192), 7.0, np.float32)
    want[2:4] = -np.sort(y, axis=0)
    np.testing.assert_array_equal(np.asarray(updated), want)


def test_irfft_of_weighted_u32_stack_cpu():
    """IREE 3.13 llvm-cpu: its own IRFFT of 16384 points kept the unused imaginary half of its
    last stage on the stack (65536 bytes); shlo-expand-fft now takes the real part of IREE's
    complex IFFT from 16384 points on; seed 44 program 359."""
    assert replay("irfft_of_weighted_u32_stack_cpu") is None


@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_long_irffts(target):
    """IRFFTs of 65536 points and of 4 rows of 16384 (both failed to compile on cpu) against
    numpy's float64 irfft (vulkan, which always took the IFFT route: 75 s, slow)."""
    import numpy as np

    import shlo
    _target_or_skip(target)
    text = """func.func @main(%a: tensor<32769xcomplex<f32>>, %b: tensor<4x8193xcomplex<f32>>)
    -> (tensor<65536xf32>, tensor<4x16384xf32>) {
  %0 = stablehlo.fft %a, type = IRFFT, length = [65536]
      : (tensor<32769xcomplex<f32>>) -> tensor<65536xf32>
  %1 = stablehlo.fft %b, type = IRFFT, length = [16384]
      : (tensor<4x8193xcomplex<f32>>) -> tensor<4x16384xf32>
  return %0, %1 : tensor<65536xf32>, tensor<4x16384xf32>
}"""
    rng = np.random.default_rng(4)
    a, b = ((rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype(np.complex64)
            for s in ((32769,), (4, 8193)))
    got = shlo.compile(text, target=target, cache=False)(a, b)
    for g, x, n in zip(got, (a, b), (65536, 16384)):
        want = np.fft.irfft(x.astype(np.complex128), n=n)
        assert np.max(np.abs(np.asarray(g) - want)) <= 1e-5 * np.max(np.abs(want))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_vecmat_result_converted_twice_cpu(target):
    """IREE 3.13 failed to compile a vector-matrix dot_general whose result is converted to f32
    both directly and through a broadcast_in_dim ('failed to legalize unresolved source
    materialization'), cpu and vulkan; shlo-fence-vector-dot-results fences the result."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("vecmat_result_converted_twice_cpu", target) is None


def test_sort_of_zero_trip_loop_argument_cpu():
    assert replay("sort_of_zero_trip_loop_argument_cpu") is None


def test_fft_of_s64_unary_slice_cpu():
    assert replay("fft_of_s64_unary_slice_cpu") is None


def test_sort_and_empty_reduce_of_argument_cpu():
    assert replay("sort_and_empty_reduce_of_argument_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_scatter_of_clamped_converted_index_cpu(target):
    """IREE 3.13 failed to compile a scatter whose one-element updates are a reshaped slice of
    a lower-rank tensor ('expected rank to be smaller or equal to the other rank'), cpu and
    vulkan; shlo-fence-scalar-scatter-updates reads them as a scalar behind a barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("scatter_of_clamped_converted_index_cpu", target) is None


def test_slice_of_cancelled_zeros_is_a_false_alarm():
    """Seed 73 program 16, a fuzzer false alarm: a slice of an IFFT's zero bins (its input all
    ones) was 8e-25 where XLA gave 0, while the tolerance was relative to the slice's own
    magnitude (0); a selection's cancelled error is now relative to its operand's magnitude
    (Val.scale)."""
    import numpy as np

    from shlo.tools.fuzz import program as P
    from test_fuzz_false_alarms import _passes_on_cpu
    x = np.ones((8, 11, 7, 9), np.float16)
    program = P.Program([P.Param("p2", x.shape, "F16")],
                        [P.Node("n1", "fft", ["p2"], 563420745),
                         P.Node("n3", "slice", ["n1"], 753450889)], ["n3"], [x])
    assert P.build(program).vals["n3"].scale == "n1"
    _passes_on_cpu(program)


def test_signed_unsigned_bitcast_is_not_checked_against_xla():
    """Seed 73 program 344, a fuzzer false alarm: XLA's CPU computes convert(bitcast_convert(
    convert(f32 -> s32) -> u32) -> bf16) as if signed (-10 for 4294967286: a batch norm of it
    30.125 where 162 is right); such programs have the interpreter as their oracle, or are
    built without the s32 <-> u32 bitcast for XLA."""
    import numpy as np

    from shlo.tools.fuzz import program as P
    from test_fuzz_false_alarms import _passes_on_cpu
    x = np.array([8.547331 + 7.1674905j, -10.201237 + 2.8885462j], np.complex64)
    program = P.Program([P.Param("p0", x.shape, "C64")],
                        [P.Node("n0", "bitcast_convert", ["p0"], 706660458),
                         P.Node("n4", "batch_norm_inference", ["n0", "n0"], 377023056)],
                        ["n4"], [x])
    assert "ui32" in str(P.build(program).module) and P.build(program).xla_wrong
    assert "ui32" not in str(P.build(program, xla_safe=True).module)
    _passes_on_cpu(program, oracle="reference")


def test_power_over_itself_is_not_checked_against_xla():
    """Seed 74 program 179 (F16[262144], too large for the interpreter), a fuzzer false alarm:
    XLA rewrites x / pow(y, z) as x * pow(y, -z), so an f16 pow(7, 7) (inf) over itself was
    inf, not NaN; XLA checks a float power only behind an optimization_barrier (`xla_safe`)."""
    import numpy as np

    from shlo.tools.fuzz import program as P
    x = np.array([7, 8, 2, 300, -4, 0.5], np.float16)
    program = P.Program([P.Param("p1", x.shape, "F16")],
                        [P.Node("n0", "binary", ["p1", "p1"], 143500251),
                         P.Node("n2", "binary", ["n0", "n0"], 969851939)], ["n2"], [x])
    text = str(P.build(program, xla_safe=True).module)
    assert "stablehlo.power" in text and "optimization_barrier" in text
    fuzzer = fuzz.Fuzzer(["cpu"], oracles=("xla",))
    try:
        checked = fuzzer.check(program)
    finally:
        fuzzer.close()
    assert checked.findings == [] and checked.oracles.get("xla") is not None


def test_complex_log_of_an_empty_bin():
    """Seed 74 program 499, a fuzzer false alarm: the complex log of an RFFT of nine ones, whose
    bins 1-4 are 0 in exact arithmetic: -inf in XLA, -15.8 from shlo's rounding noise; a
    cancelled complex value's log or sqrt now reads it off 0 and the negative real axis."""
    import numpy as np

    from shlo.tools.fuzz import program as P
    from test_fuzz_false_alarms import _passes_on_cpu
    x = np.ones(9, np.bool_)
    program = P.Program([P.Param("p2", x.shape, "PRED")],
                        [P.Node("n2", "fft", ["p2"], 761403583),
                         P.Node("n7", "unary", ["n2"], 300645316)], ["n7"], [x])
    assert "stablehlo.log" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_sort_of_barrier_of_returned_value_cpu():
    assert replay("sort_of_barrier_of_returned_value_cpu") is None


def test_dot_of_zero_constant_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dot_of_zero_constant_vulkan") is None


def test_variadic_reduce_dot_operand_cpu():
    assert replay("variadic_reduce_dot_operand_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_add_of_two_reshapes(target):
    """Seed 57 program 624: a complex<f32> add of two reshapes of one 2x7 value, its real part
    returned, failed to compile on cpu and vulkan ('failed to legalize operation
    stablehlo.add'); shlo-expand-complex-add adds the parts first."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("complex_add_of_two_reshapes", target) is None


def test_batch_grouped_conv_of_narrow_convert_vulkan():
    """Seed 96 program 24: an i32 convolution (batch_group_count 3, padding, rhs dilation)
    of a bf16 -> i32 convert; fused into the groups' dispatches the convert raced (2 of 60
    wrong in 29 of 30 runs); vk-narrow-convolution-input reads it behind a barrier."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    for _ in range(3):
        assert replay("batch_grouped_conv_of_narrow_convert_vulkan", "vulkan") is None


def test_dot_of_dot_overflow_vulkan():
    """Seed 57 program 658: a batched dot_general (no contraction) of a dot's result gave 0
    where the product overflows to inf: not overflow but a race (IREE fused the first product
    into the second's dispatch and read its workgroup-memory tile without a barrier; random
    operands: 25 of 75 wrong); vk-spread-product reads it behind a fusion barrier."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dot_of_dot_overflow_vulkan") is None


def test_complex_real_sum_small_vulkan():
    """Seed 57 program 702: a sum of the real part of a complex<f32>[8] argument failed to
    compile on vulkan; vk-complex-reduce-input computes the part in a dispatch of its own."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("complex_real_sum_small_vulkan") is None


def test_window_mostly_padding_vulkan():
    """Seed 57 program 673: a sum reduce_window of i32[1, 1] with one window, mostly padding,
    failed to compile on vulkan ('memref.copy' to workgroup memory); vk-single-window."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("window_mostly_padding_vulkan") is None


def test_error_signatures_past_iree_prefix():
    """A shrunk compile failure keeps its op's message (seed 57 program 673 drifted from
    memref.subview to memref.copy: the first 70 characters were IREE's common prefix)."""
    def sig(message):
        return fuzz.Finding("error", "vulkan", "CompileError: IREE compilation for target "
                            f"'vulkan:llvmpipe' failed: -:21:11: {message}", None).signature()
    assert sig("failed to legalize operation 'memref.subview': %62") != \
        sig("failed to legalize operation 'memref.copy': %17")
    assert sig("failed to legalize operation 'memref.copy': %17 = tensor<4xi32>") == \
        sig("failed to legalize operation 'memref.copy': %5 = tensor<1xi32>")


def test_f16_min_reduce_two_dims_vulkan():
    """Seed 59 program 235: a min reduce of f16[16, 1, 2, 3] over [0, 3] failed to compile on
    vulkan ('vector.transfer_read' op with rank > 1); vk-gapped-reduce reduces in two stages."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f16_min_reduce_two_dims_vulkan") is None


def test_f64_select_and_scatter_row_vulkan():
    """Seed 59 program 273: shlo-expand-select-and-scatter's strided window slices of a 1x16
    operand failed to compile on vulkan ('unresolved materialization'; IREE alone fails alike
    on x[:, ::2] + x[:, 1::2]); vk-squeezed-strided-slice slices the 1-D reshape."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f64_select_and_scatter_row_vulkan") is None


def test_byte_reductions_of_eight():
    """IREE's vulkan compile crashed (SIGFPE) on reduces of 8-bit integers over 8 elements a
    result, from about 300 results on (u8[100, 3, 8] summed over its last dimension: seed 64
    program 342); vk-byte-reduce-of-eight reduces them in 32 bits. s8[65536, 8] sums and
    u8[8, 65536] maxima against numpy."""
    import numpy as np

    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("byte_reduce_of_eight_vulkan") is None
    rng = np.random.default_rng(342)
    for shape, dimension, dtype, op, combine in [((65536, 8), 1, "i8", "add", np.add),
                                                 ((8, 65536), 0, "ui8", "maximum", np.maximum)]:
        kept = shape[1 - dimension]
        text = f"""func.func @main(%a: tensor<{shape[0]}x{shape[1]}x{dtype}>) -> tensor<{kept}x{dtype}> {{
  %c = stablehlo.constant dense<0> : tensor<{dtype}>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.{op} across dimensions = [{dimension}]
    : (tensor<{shape[0]}x{shape[1]}x{dtype}>, tensor<{dtype}>) -> tensor<{kept}x{dtype}>
  return %0 : tensor<{kept}x{dtype}>
}}"""
        np_type = np.int8 if dtype == "i8" else np.uint8
        x = rng.integers(-128 if dtype == "i8" else 0, 128 if dtype == "i8" else 256, shape).astype(np_type)
        got = np.asarray(shlo.compile(text, target="vulkan", cache=False)(x))
        want = combine.reduce(x, axis=dimension, dtype=np_type)
        if op == "maximum":
            want = np.maximum(want, 0)
        np.testing.assert_array_equal(got, want)


def test_window_of_padded_out_row_vulkan():
    """A min reduce_window of s32[1, 3] whose one row of windows reads only dimension 0's low
    padding (padding [[1, 0], [2, 0]], base dilation [1, 2], stride [2, 1]) gave the data's
    minimum (1) for the init (2^31 - 1), silently: vk-squeezed-interior-pad dropped the pad's
    cancelling edges [1, -1] (seed 64 program 938, a day after the entry)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("window_of_padded_out_row_vulkan") is None


def test_select_and_scatter_65537_vulkan():
    """Seed 65 program 992: a select_and_scatter (window 2, stride 1) of f32[65537] failed to
    compile on vulkan ('failed to legalize unresolved materialization' of
    memref<16384xvector<4xi32>> to a strided one): a dispatch read its expansion's
    iota[1:65537] from memory at an offset of one element with vector loads (also without
    shlo's passes; 1025, 4097 and 131073 elements compiled); vk-sliced-iota
    computes the slice as an iota of its own plus 1."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("select_and_scatter_65537_vulkan") is None


def test_complex_conv_of_padded_values_vulkan():
    """Seed 65 program 995: a complex convolution of values computed from zero-padded
    complex(x, x) of f32[2, 1] failed to compile on vulkan ("'memref.store' op write affecting
    operations on global resources are restricted to workgroup distributed contexts"): the
    real and imaginary parts (equal) of each operand were fenced apart
    (vk-narrow-convolution-input), IREE folded real/imag(reshape(complex(a, b))) after the
    fences and fused both into one dispatch yielding one value twice, whose copy it left
    undistributed (also on cpu with those fences); vk-complex-part-of-view folds them first,
    so cse merges them."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("complex_conv_of_padded_values_vulkan") is None


def test_select_and_scatter_strided_unit_dims_vulkan():
    """Seed 66 program 14: a select_and_scatter of u8[1, 2, 64, 1] keys (window [1, 1, 2, 1],
    strides [2, 1, 2, 1]) gave 1 for 0 in 64 of 128 results on vulkan, silently: its window
    slices x[:, :, ::2] of a [1, 2, 64, 1] value read 4 neighbours for every 4 strided
    elements (IREE's alone too); vk-squeezed-strided-slice slices the reshape without the
    size-1 dimensions."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("select_and_scatter_strided_unit_dims_vulkan") is None


def test_sort_of_288_vulkan():
    """Seed 67 program 388: a descending TOTALORDER sort of f32[288] was unsorted in 49 places
    on vulkan, silently: below min-size it stayed IREE's sort, whose Vulkan loops (n^2 an
    invocation) lavapipe cuts after 65535 iterations; shlo-lower-sort's native-max-length=256
    gives it the network."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("sort_of_288_vulkan") is None


def test_grouped_conv_u32_vulkan():
    """Issue 37: grouped (depthwise) convolutions of ui32 and ui64 were wrong on vulkan, also
    without shlo's passes (this ui32[2, 3, 1, 4] by [3, 1, 3, 2] one, 3 groups: 0 for 1 in 1
    of 12; 4x64x1024 by 128x1x5, 64 groups: 261120 of 522240); vk-unsigned-grouped-conv
    computes them in i32/i64; seed 60 program 131."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("grouped_conv_u32_vulkan") is None


def test_small_dot_negative_zero_vulkan():
    """Issue 37: a dot_general contracting 2 elements whose products are all -0 gave -0 on
    vulkan (31 of 31, f16 and f32), also without shlo's passes; the spec's dot is a sum from
    +0, so +0, which a TOTALORDER compare with 0 reads; vk-zero-sum-sign adds a +0 read from
    memory to short sums' results; seed 61 program 189."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("small_dot_negative_zero_vulkan") is None


def test_i16_conv_of_i8_convert_vulkan():
    """Written for issue 37: an i16 convolution (padding, rhs dilation) of an i8 -> i16
    convert; fused into the convolution's dispatch the convert raced (6 of 20 wrong in 6 of 6
    replays when vk-narrow-convolution-input fenced 32/64-bit operands only); it reads the
    convert behind a barrier."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    for _ in range(3):
        assert replay("i16_conv_of_i8_convert_vulkan", "vulkan") is None


def test_fft_long_vulkan():
    """Issue 37: an FFT of 131072 points or more had its outputs from index 65535 on wrong on
    vulkan (RFFT of f32[131072]: bin 65535; IRFFT alike; 65536 right); vk-fft-fused-read splits it
    into ffts of at most 65536 points; seed 60 program 260."""
    import numpy as np

    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    with open(os.path.join(HERE, "fft_long_vulkan", "program.mlir")) as f:
        text = f.read()
    x = np.random.default_rng(260).standard_normal(131072).astype(np.float32)
    got = np.asarray(shlo.compile(text, target="vulkan", cache=False)(x))
    want = np.fft.rfft(x.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4 * np.abs(want).max())


def test_dilated_window_of_clamp_row_vulkan():
    """Issue 37: a min reduce_window (window [1, 3], base dilation [1, 2], padding [0, 1]) of
    a clamp of f32[1, 8] failed to compile on vulkan, also without shlo's passes ('failed to
    legalize unresolved materialization' of memref<16xf32> to memref<1x16xf32>): the interior
    pad of the computed row that expresses the base dilation; vk-squeezed-interior-pad pads its
    1-D reshape; seed 61 program 407."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dilated_window_of_clamp_row_vulkan") is None


def test_scatter_of_barrier_read_twice_vulkan():
    """A scatter-min of s64[2] into itself: shlo-copy-overlapping-updates reads the updates
    through optimization_barrier(x); shlo-read-barrier-results made the operand read the
    barrier's result too, scatter(b, i, b), and IREE's vulkan compile segfaulted (seed 62
    program 179). A reader of the barrier's result keeps reading its operand."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("scatter_of_barrier_read_twice_vulkan", worker=Worker(timeout_s=300)) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_select_and_scatter_one_window(target):
    """Issue 37: a padded, dilated reduce_window of reshape(slice(v)[0:1]) to 1x1 (v the f64[2]
    scatter of shlo's select_and_scatter expansion) failed to compile on cpu and vulkan, also
    without shlo's passes ('expected rank to be smaller or equal to the other rank');
    shlo-fence-scalar-scatter-updates reads every one-element view of a lower-rank slice as a
    fenced scalar; seed 62 program 385."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("select_and_scatter_one_window_cpu", target) is None


def test_dynamic_update_slice_at_own_element_cpu_hang():
    """IREE 3.13's llvm-cpu compile hung on shlo-copy-overlapping-updates' select when the
    update landed in a splat of its own first element; it lands in a zero constant now."""
    assert replay("dynamic_update_slice_at_own_element_cpu_hang",
                  worker=Worker(timeout_s=60)) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_gather_of_reshaped_dynamic_slice(target):
    """Issue 37: a gather from the 1x1x1x1 reshape of a one-element dynamic_slice of s16[3],
    the reshape also returned, failed to compile on cpu and vulkan, also without shlo's passes
    ('expected rank to be smaller or equal to the other rank'); shlo-fence-scalar-scatter-updates
    reads the view as a fenced scalar; seed 75 program 322."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("gather_of_reshaped_dynamic_slice_cpu", target) is None


def test_tanh_saturates_below_one_vulkan():
    """Mesa's f32 tanh saturated at 1 - 2^-22 (0.9999998) for every |x| >= 8, so pow(|tanh(x)|,
    x) at x = 183212.6 gave 0.9678 for 1; shlo-accurate-math{exp-log=true} (the Vulkan
    target's) computes tanh with f32_math.tanh, exactly +-1 past 9.0109. Seed 63 program 360."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("tanh_saturates_below_one_vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rfft_of_folded_zeros(target):
    """Issue 37: a 2-D RFFT of clamp(select(is_finite(v), v, 0)), v = convert(x > x), which
    IREE folds to zeros, failed to compile on vulkan and cpu ('write affecting operations on
    global resources are restricted to workgroup distributed contexts'): IREE's RFFT made its
    zero imaginary part and the folded input one tensor. shlo-expand-fft fences an RFFT's input
    (test_fft_of_folded_inputs at 64K+ elements); seed 64 program 599."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("rfft_of_folded_zeros_vulkan", target) is None


def test_f16_few_output_conv_sliced_vulkan():
    """Seed 64 program 1107: an f16 convolution with 3 output positions (vk-few-output-
    convolution's per-position products, concatenated and transposed) whose result is also
    widened to f32 and sliced: one element inf, -0 or garbage on a process's first run (its
    right value is 0; with random operands 16 of 20 runs had 3 of 18 wrong): IREE staged the
    widened transpose in workgroup memory with no barrier; vk-widened-transpose fences it.
    Each replay in a fresh worker process (the first run is the one that fails)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    for _ in range(5):
        worker = Worker(timeout_s=120)
        try:
            assert replay("f16_few_output_conv_sliced_vulkan", worker=worker) is None
        finally:
            worker.close()


def test_f16_conv_power_of_complex_real_vulkan():
    """Issue 37, seed 65 program 336: an f16 convolution (one output position, IREE's matmul)
    whose result's abs is raised to the power of an f16 convert of a complex's real part
    failed to compile on vulkan, also without shlo's passes ('unresolved source
    materialization' of memref<1xf16> to memref<1x1xf16, strided<[3, 1]>>): the product's
    dispatch fused readers of the complex buffer; vk-complex-fused-product fences the result
    (test_vulkan_complex_fused_product at 64K rows)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f16_conv_power_of_complex_real_vulkan") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dominance_of_loop_after_batch_norm(target):
    """Seed 67 program 157: a pad of a batch_norm_inference's result by a value computed from
    a while loop (that an if's result starts) failed to compile on cpu and vulkan, also
    without shlo's passes ("operand #1 does not dominate this use"): IREE writes the pad's
    operand in place into the splat of its padding value, and moves the ops computing that
    splat (the scf.if IREE wraps the loop in among them) above the operand's dispatch,
    although the if's region reads the if's result computed after it.
    shlo-copy-overlapping-updates reads the operand through an optimization_barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("dominance_of_loop_after_batch_norm", target) is None


def test_boolean_matvec_vulkan():
    """Seed 67 program 885: `convert(b) @ convert(b).reshape(-1)[:8]` of i1[8, 512] ran right
    on vulkan but corrupted the heap (`free(): invalid pointer` at exit; IREE alone segfaults
    in the call): the i1 reads fused into the matvec went out of bounds;
    vk-narrow-product-input reads the product's boolean-derived operands from memory."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("boolean_matvec_vulkan") is None


def test_slice_of_rounded_convert_vulkan():
    """Seed 67 program 1144: `clamp(convert(f16[16384] -> bf16)[:8], y, y)[3::3]` failed to
    compile on vulkan (65536 bytes of shared memory): the bf16 rounding reads values twice, and
    shlo-slice-before-elementwise stopped at them; it now crosses the diamonds of its chain."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("slice_of_rounded_convert_vulkan") is None


def test_empty_update_after_sort_vulkan():
    """Seed 67 program 917: a dynamic_update_slice of an empty (2x0) update into a sort's result,
    read by a reduce_window, failed IREE's vulkan compile ("'memref.store' op write affecting
    operations on global resources"); shlo-fold-identity-ops folds an empty update to its
    operand."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("empty_update_after_sort_vulkan") is None


def test_widened_byte_product_vulkan():
    """Seed 68 program 304: a ui16 dot_general of an i8 -> ui16 convert was wrong on vulkan
    (15872 for 65024), IREE alone too: sign-extended products fused into the dispatch;
    vk-narrow-product-input reads the converted operand from memory."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("widened_byte_product_vulkan") is None


def test_one_element_of_cosine_vulkan():
    """Seed 68 program 341: `fmod(y, cos(x).reshape(-1)[0])` of f32[3, 651] failed to compile
    on vulkan (47040 bytes of shared memory) while shlo-slice-before-elementwise crossed shared
    values for slices of a few elements (77f7417): it sliced part of shlo-accurate-math's
    cosine and left the rest whole in the slice's dispatch. Since 4bd5752 such a slice reads a
    shared value behind a fence."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("one_element_of_cosine_vulkan") is None


def test_one_output_convolution_crash_vulkan():
    """Seed 68 program 455: a convolution of f32[8, 7, 3, 6] by [1, 3, 7, 4] ([o, 0, i, 1]
    kernel, stride 3: one output position) crashed IREE's SPIR-V compile (SIGSEGV), IREE alone
    too; vk-few-output-convolution makes one-output convolutions a dot_general."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("one_output_convolution_crash_vulkan") is None


def test_update_after_case_read_vulkan():
    """Seed 70 program 766: a case read a select_and_scatter's result in its branches and a
    later dynamic_update_slice updated it; IREE wrote the update in place first (2 of 32 of
    the case's result wrong). shlo-copy-overlapping-updates computes such an update into a
    new buffer."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("update_after_case_read_vulkan") is None


def test_scatter_min_of_own_pad_cpu():
    """Seed 98 program 824: a min scatter whose updates are a pad of its own operand; with the
    operand padded too, both were one value, and shlo-copy-overlapping-updates read the
    updates through optimization_barrier(x): IREE's in-place scatter into x then read its
    updates from x's own buffer (1 of 7 wrong on cpu). The barrier is left out for updates
    that are one of the scatter's inputs, which IREE copies itself."""
    assert replay("scatter_min_of_own_pad_cpu") is None


def test_f16_conditional_of_transpose_vulkan():
    """Seed 71 program 453: an f16 conditional of a transpose of an s8 -> f16 convert, NaN for
    -13 in 3 of 18 on vulkan in 2 of 3 replays: IREE's dispatch read the convert back from
    workgroup memory that other invocations wrote, with no barrier between (a race). The
    vulkan target fences workgroup memory (passes/targets/vulkan/workgroup_barriers.py)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f16_conditional_of_transpose_vulkan") is None


def test_select_and_scatter_of_zero_source_vulkan():
    """Seed 99 program 13: a select_and_scatter (1x1 windows, strides 1x2) of s64[512, 257]
    whose source is a zero pad of an empty f64 convert: a scatter of constants that
    shlo-split-long-reduce cuts into a loop of chunks and a rest, which IREE hoisted into an
    initializer that never compiled ('maximum iteration count exceeded in fixed point
    pipeline'). shlo-barrier-constant-expressions{loops=true} selects the loop's carried
    value at run time. The program with random inputs (its own, 1 MB, were not kept):
    every scattered value is 0, so is the result."""
    import numpy as np
    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    with open(os.path.join(HERE, "select_and_scatter_of_zero_source_vulkan",
                           "program.mlir")) as f:
        exe = shlo.compile(f.read(), target="vulkan")
    x = np.random.default_rng(0).integers(-100, 100, (512, 257), dtype=np.int64)
    got = np.asarray(exe(np.zeros(0), x))
    np.testing.assert_array_equal(got, np.zeros((512, 257), np.int64))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dynamic_update_slice_of_own_clamp(target):
    """Seed 101 program 294: dynamic_update_slice(x, clamp(x, x, x)[0:2], i) of i1[4]: IREE
    folded the clamp to x and wrote the update in place before it read it (1 of 4 wrong on
    cpu); shlo-fold-identity-ops folds clamp(x, x, x) first, so shlo-copy-overlapping-updates
    sees a view of x."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("dynamic_update_slice_of_own_clamp_cpu", target) is None


def test_pad_of_one_element_window_cpu():
    """Seed 102 program 363: shlo-canonicalize-scatter padded a scatter's operand, a padded
    one-element max window that IREE lowers as a pad: a pad of a pad by another value, which
    IREE 3.13 failed to compile ('write affecting operations on global resources are
    restricted to workgroup distributed contexts'); shlo-merge-edge-pads fences it."""
    assert replay("pad_of_one_element_window_cpu") is None


def test_concatenate_of_conditional_cpu():
    """Seed 98 program 746: an if's result concatenated with a convert computed before the if
    (and read there too); IREE 3.13's stream allocation moved the if above values its branches
    read ('operand #0 does not dominate this use'); shlo-copy-overlapping-updates reads the
    convert through an optimization barrier (a convert is a dispatch, not a view)."""
    assert replay("concatenate_of_conditional_cpu") is None


def test_reverse_of_dynamic_column_cpu():
    """Seed 116 program 68: a reverse of a [5, 1] dynamic_slice column of a bf16 [6, 8] failed
    IREE's llvm-cpu compile ('LLVM Translation failed ... unrealized_conversion_cast') like a
    reverse of a strided slice; shlo-fence-gathered-slices fences the column."""
    assert replay("reverse_of_dynamic_column_cpu") is None


def test_reverse_of_strided_slice_cpu():
    """Seed 101 programs 466 and 492: a reverse of a strided slice (bf16[16][3:9:2]; also
    u32[16, 8]) failed IREE's llvm-cpu compile ('LLVM Translation failed ...
    unrealized_conversion_cast', also without shlo's passes); shlo-fence-gathered-slices fences
    the slice."""
    assert replay("reverse_of_strided_slice_cpu") is None


def test_broadcast_integers_to_bf16_vulkan():
    """Seed 148 program 163: i8 -> f32, broadcast, -> bf16 failed the vulkan compile ("'spirv.
    Bitcast' op mismatch in result type bitwidth 16 and operand type bitwidth 32");
    vk-integer-to-bf16 saw the integer convert only as the bf16 convert's direct operand."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("broadcast_integers_to_bf16_vulkan") is None


def test_complex_pad_of_padded_parts_cpu():
    """Seed 147 program 198: a complex pad (by 1 - 2i) of complex(convert(i8), pad(convert(i64),
    0)) failed the cpu compile ('write affecting operations on global resources'): its
    imaginary part, once folded, is a pad of a pad by another value, which
    shlo-expand-complex-pad could not see; shlo-merge-edge-pads, run late, fences it."""
    assert replay("complex_pad_of_padded_parts_cpu") is None


def test_byte_product_into_bytes_vulkan():
    """Seed 152 program 85: a dot_general of ui8[1, 1, 8, 16] by [8, 3, 8] into ui8 killed
    IREE's vulkan compile (SIGFPE, also without shlo's passes); vk-byte-product computes it
    into ui32 and converts back."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("byte_product_into_bytes_vulkan", worker=Worker(timeout_s=120)) is None


def test_slice_of_self_compare_or_cpu():
    """Seed 155 program 177: a strided slice of `compare(x, x) or y`: the fenced `or`, which
    IREE folds to true, failed the cpu compile; shlo-slice-before-elementwise leaves values
    IREE folds to a constant unfenced."""
    assert replay("slice_of_self_compare_or_cpu") is None


def test_sum_of_broadcast_outer_product_cpu():
    """Seed 159 program 567: a sum over all of a broadcast (to a new dimension) of an outer
    product failed IREE's cpu compile ('vector.contract' op invalid accumulator/result vector
    shape), also without shlo's passes; shlo-reduce-before-broadcast sums the product and
    multiplies by the broadcast's count."""
    assert replay("sum_of_broadcast_outer_product_cpu") is None


def test_convolution_of_zero_splats_cpu():
    """Seed 161 program 126: a grouped, lhs-dilated ui32 convolution of zero splats killed
    IREE's compiler (SIGSEGV reshaping the unsigned constant kernel); shlo-legalize-integer-ops
    runs grouped unsigned convolutions on signless integers. Replayed in a worker process."""
    assert replay("convolution_of_zero_splats_cpu", worker=Worker(timeout_s=120)) is None


def test_reverse_of_sliced_pad_column_cpu():
    """Seed 147 program 174: a reverse of a [1, 3, 1] column sliced from a pad failed IREE's
    llvm-cpu compile ('LLVM Translation failed ... unrealized_conversion_cast', also without
    shlo's passes): a unit-stride slice that is not contiguous; shlo-fence-gathered-slices
    fences it."""
    assert replay("reverse_of_sliced_pad_column_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_conditionals_sharing_a_capture(target):
    """Seed 101 program 311: an `if` reading an i64 convert, then a `case` of its result, then
    the convert read again stopped IREE's stream scheduler on every target ('failed to
    schedule execution partitions without cyclic dependencies'); shlo-barrier-conditional-
    captures reads the convert in the `if` through an optimization barrier."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("conditionals_sharing_a_capture_cpu", target) is None


def test_f64_transposed_scatter_read_twice_vulkan():
    """Seed 105 program 536: an f64 convert of a transposed scatter-add, returned and doubled;
    on vulkan the doubled result's scattered element was garbage (a subnormal) in about half
    of the first runs in a process (IREE alone too): a race in workgroup memory with no
    barrier, fenced by passes/targets/vulkan/workgroup_barriers.py."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f64_transposed_scatter_read_twice_vulkan") is None


def test_f64_reduce_and_sliced_batch_norm_vulkan_hang():
    """Seed 108 program 85: slices of a flattened i1-to-f64 convert fed a batch_norm_inference
    beside an f64 min-reduce; IREE fused the whole convert into the slices' dispatch and its
    Vulkan codegen did not finish. shlo-slice-before-elementwise fences such a convert."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("f64_reduce_and_sliced_batch_norm_vulkan_hang",
                  worker=Worker(timeout_s=60)) is None


def test_dilated_min_window_to_bf16_vulkan():
    """Seed 126 program 7: expm1 of a bf16 convert of an i32 min reduce_window with base and
    window dilation; on vulkan 4 of 48 elements were inf (the window's init) where 0 is
    right, in 4 of 11 replays: the window was read from workgroup memory with no barrier
    after other invocations wrote it, fenced by passes/targets/vulkan/workgroup_barriers.py."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("dilated_min_window_to_bf16_vulkan") is None


def test_ifft_of_sanitized_window_cpu():
    """Seed 131 program 15: ifft(sanitize(x)) - x of a min reduce_window x (inf in padding):
    IREE fused the window, x's sanitized real part and the constant 0 of imag(convert(x)) into
    one dispatch of three results, then encoded the wrong two of them for its DFT matmuls
    (11 of 36 NaN on cpu). shlo-fold-constant-scalars folds imag(convert(x)) to 0 and
    splat chains before IREE sees them; shlo-fold-identity-ops real(convert(x)) to x."""
    assert replay("ifft_of_sanitized_window_cpu") is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_update_after_loop_reading_its_zeros(target):
    """Seed 135 program 27: a dynamic_update_slice of a while's result by a slice of it, the
    loop's body reading a constant 0 (its sine's range reduction): shlo-copy-overlapping-updates'
    select form updates a constant of zeros, which became that same constant, read in the
    loop; the pass rewrote its own update again until the driver gave up ('failed to
    converge'). A constant's update is never rewritten (IREE updates a copy of it)."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("update_after_loop_reading_its_zeros_cpu", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_hoisted_loop_condition_and_complex_start(target):
    """Seed 117 program 325: a 3-trip loop's first condition (true, i1) and a complex reduce's
    start (0, 0) were hoisted by IREE as one dispatch of two results, and both globals got
    the i1: on vulkan "invalid Read access range [0 to 8 for 8] of resource
    %__hoisted_tensor_i1 with size 1" in about 1 of 4 compiles, OUT_OF_RANGE at the first call
    otherwise. shlo-barrier-constant-expressions reads the start's constants through a
    barrier, so IREE hoists the condition alone."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("hoisted_loop_condition_and_complex_start_vulkan", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_window_into_batched_dot(target):
    """Seed 136 program 205: a min reduce_window of f16[3, 8, 1] (base and window dilation,
    padding) read by a dot_general batched over its second dimension with one contracting
    element: on vulkan IREE fused the window into the dot's broadcast product and 5 of 60
    results were 0 for NaN (inf * 0), also without shlo's passes (15 of 60 wrong for random
    4x4 data). vk-window-broadcast fences a window's results that a dot_general reads."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("window_into_batched_dot_vulkan", target) is None


@pytest.mark.xfail(strict=False, reason="open: two select_and_scatters (add, f32[7, 5, 100, 3] "
                   "from a padded complex's real part) on vulkan: 4 of 10500 elements wrong on "
                   "the second call of the fuzzer's run (seed 136 program 159), right in 9 "
                   "replays: a race")
def test_select_and_scatter_second_call_vulkan():
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("select_and_scatter_second_call_vulkan") is None


def test_scatter_into_hoisted_pad_later_calls():
    """Seed 139 program 124: select_and_scatters (scatters into a pad of zeros, 601 i32, which
    IREE hoists into a global). shlo-barrier-constant-expressions read the pad through a
    barrier, and IREE then scattered into the global itself: every later call started from
    the earlier calls' sums (3 of 600 elements wrong on the second call, 4 on the third).
    Values IREE hoists are left alone."""
    _later_calls_agree("scatter_into_hoisted_pad_later_calls_cpu")
    assert replay("scatter_into_hoisted_pad_later_calls_cpu") is None


def _later_calls_agree(name: str) -> None:
    """Three cpu calls of the reproducer `name` (its one input) return the same values."""
    import numpy as np
    import shlo
    d = os.path.join(HERE, name)
    with open(os.path.join(d, "program.mlir")) as f:
        exe = shlo.compile(f.read(), target="cpu", cache=False)
    x = np.load(os.path.join(d, "input_0.npy"))
    first, *later = ([np.asarray(r) for r in _results(exe(x))] for _ in range(3))
    for k, results in enumerate(later):
        for a, b in zip(first, results):
            np.testing.assert_array_equal(b, a, err_msg=f"call {k + 2}")


def _results(out) -> list:
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_difference_of_reshape_chains(target):
    """Seed 140 program 21: reshape(x) - reshape(reshape(x)) of f32[32, 8] with a NaN: 0 for
    NaN on vulkan, the shader compiler folding x - x; vk-self-difference took the two
    reshapes for different values (a chain of reshapes now counts as one)."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("difference_of_reshape_chains_vulkan", target) is None


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sqrt_of_converted_unsigned_scalar(target):
    """Seed 143 program 250: sqrt(convert(u32 -> complex<f32>)) crashed shlo-compile (SIGSEGV):
    shlo-fold-constant-scalars folded imag(convert(x)) to 0 and queued an op that read it
    twice twice, then folded and erased it twice. Each op is queued once."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    assert replay("sqrt_of_converted_unsigned_scalar_cpu", target,
                  worker=Worker(timeout_s=120)) is None     # (a crash must not end the run)


def test_max_pool_gradient_later_calls():
    """Seed 145 program 267: two select_and_scatters (a max-pool gradient) of f32[16, 16384]:
    half the elements wrong from the second call, when shlo-barrier-constant-expressions read
    a scattered value of constants through a barrier and IREE scattered into a hoisted global.
    Every call agrees with the first and the first with the oracles."""
    _later_calls_agree("max_pool_gradient_later_calls_cpu")
    assert replay("max_pool_gradient_later_calls_cpu") is None


@pytest.mark.parametrize("name", ["broadcast_of_gathered_complex_cpu",
                                  "outer_product_of_reshaped_bf16_cpu"])
def test_iree_input_conversion_cpu(name):
    """Seed 165 programs 132 and 166: IREE's input conversion, canonicalizing ops whose
    operands it had converted, failed to compile a gather read through a broadcast that only
    adds a unit dimension (shlo-reshape-unit-broadcasts writes it as a reshape) and a bf16
    dot_general into f32 that contracts nothing (shlo-accumulate-in-f32 converts its
    operands)."""
    assert replay(name) is None


def test_pad_by_folded_integer_difference_cpu():
    """Seed 165 program 470: pad(bf16, convert(x - x)[0]) of i32 failed to compile ('failed to
    legalize operation util.initializer': IREE folded x - x, hoisted shlo's f64 rounding of the
    convert into a module initializer and loaded its bf16 scalar on the host);
    shlo-fold-self-ops folds x - x first."""
    assert replay("pad_by_folded_integer_difference_cpu") is None


def test_byte_product_to_complex_vulkan():
    """Seed 168 program 109: a ui8 dot_general (2x16 by 16x2) converted to complex<f32> failed
    IREE's vulkan compile ('failed to legalize unresolved source materialization' of
    memref<1xcomplex<f32>>); vk-complex-fused-product fences a product whose fused readers
    compute complex values too."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("byte_product_to_complex_vulkan") is None


@pytest.mark.xfail(strict=False, reason="open: a 1x1 reduce_window (add) of f32[256, 2048] with "
                   "base dilation [1, 2], strides [2, 1] and a column of padding on vulkan: "
                   "72827 of 524288 elements 0 in the fuzzer's worker (seed 170 program 170, "
                   "reproduced while shrinking), right in 6 fresh replays: a race or device "
                   "state")
def test_dilated_unit_window_vulkan():
    """The program with random inputs (its own, 2 MB, not kept), three calls, against numpy:
    row i of the result is row 2i of x at the odd columns, 0 elsewhere."""
    import numpy as np
    import shlo
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    with open(os.path.join(HERE, "dilated_unit_window_vulkan", "program.mlir")) as f:
        exe = shlo.compile(f.read(), target="vulkan")
    x = np.random.default_rng(170).standard_normal((256, 2048)).astype(np.float32)
    want = np.zeros((128, 4096), np.float32)
    want[:, 1::2] = x[::2]
    for call in range(3):
        np.testing.assert_array_equal(np.asarray(exe(x)), want, err_msg=f"call {call}")


def test_loop_of_carried_bound_after_case_vulkan():
    """Seed 170 program 129: a while loop counted to a carried bound after a case whose
    branches read a fenced tensor and two return it as it is: 'transient buffer has no staged
    Vulkan backing' at every call (shlo-barrier-conditional-captures returns a copy)."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("loop_of_carried_bound_after_case_vulkan") is None


def test_slice_of_identity_reduce_cpu():
    """Seed 174 program 433: a strided slice of a bf16 reduce over no dimensions (of 16x1024;
    2048x2048 as found): shlo-slice-before-elementwise stopped at the reduce, which
    shlo-fold-identity-ops then replaced by its input's f32 convert, and IREE's dispatch of the
    slice computed the whole convert on the stack ('exceeded stack allocation limit', the
    retry without aggressive fusion too). The identities are folded first now."""
    assert replay("slice_of_identity_reduce_cpu") is None


def test_slice_of_rounded_chains_cpu():
    """Seed 174 program 438: a strided slice of a compare of two long bf16 chains stopped at
    the diamonds of shlo's bf16 rounding ('exceeded stack allocation limit' on cpu); the ops
    a slice stops at are fenced (test_slice_before_elementwise has it in jax)."""
    assert replay("slice_of_rounded_chains_cpu") is None


def test_update_by_identity_window_of_two_vulkan():
    """Seed 188 program 67 (shrunk from 4 nodes): `dynamic_update_slice(x, w[:1], w[0] % 4)`
    with w a reduce_window (max, window 1) of s32[2]: IREE folded the window to x, and its
    in-place copy of x[:1] into x failed to compile on vulkan ('failed to legalize
    hal.interface.binding.subspan'). shlo-fold-identity-ops folds such windows first, so
    shlo-copy-overlapping-updates sees the update read x."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("update_by_identity_window_of_two_vulkan") is None


@pytest.mark.xfail(strict=False, reason="open (2026-12-03): IREE's llvm-cpu compile of a "
                   "dot_general of f32[16, 33] by a zero-padded reshape of itself "
                   "(f32[16, 33, 2, 8]) into a compare, a slice and a scaled norm fails with "
                   "'large vector sizes (32768 bytes)', also through both retries "
                   "(cpu-large-vectors): loud; found on an AVX-512 machine, whose vectors "
                   "may compile elsewhere")
def test_product_of_padded_reshape_large_vectors_cpu():
    """Seed 187 program 582 (shrunk from 7 nodes): a compile error on the cpu (not strict:
    the vector sizes follow the host CPU's features)."""
    assert replay("product_of_padded_reshape_large_vectors_cpu") is None


def test_branch_equal_to_value_before_it_vulkan():
    """Seed 190 program 115: `r = reshape(x) + reshape(x); c = if p { x + x } else {
    sin(x) }; return r, transpose(c)`: IREE merged the branch's `x + x` with r, made r's
    buffer the conditional's result and deallocated it after the transpose while r was still
    to be returned ('copy source buffer has been queued for deallocation' every call on
    vulkan, also with IREE alone). shlo-barrier-conditional-captures returns a run-time copy
    of a value a branch computes."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("branch_equal_to_value_before_it_vulkan") is None


def test_update_of_folded_select_vulkan():
    """Seed 189 program 131 (from the generator's identity operands): `dynamic_update_slice(
    select(x <= 0, 0, x), x[:1], i)` of a u8[2] x: IREE folded the select (x <= 0 is x == 0
    for unsigned x) to x and copied x[:1] into x in place, which failed to compile on vulkan
    ('failed to legalize hal.interface.binding.subspan'). shlo-copy-overlapping-updates
    copies an update read from a value its operand may be after IREE's folds."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    assert replay("update_of_folded_select_vulkan") is None
