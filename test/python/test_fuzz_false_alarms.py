"""shlo-fuzz's own false alarms, fixed in the generator: the shrunk programs that shlo ran right
and the fuzzer called wrong pass on cpu, at the sizes the fuzzer found them."""
import os

import ml_dtypes
import numpy as np
import pytest
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz import program as P
from shlo.tools.fuzz.runner import InProcess, Result

pytestmark = pytest.mark.slow      # `make test-all` only (docs/testing.md)
HERE = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")


def _passes_on_cpu(program: P.Program, oracle: str = "xla", alone: bool = False) -> None:
    """No finding on cpu, checked against `oracle` (the fuzzer's name of it; `alone`: it only,
    as for a program too large for the interpreter)."""
    fuzzer = fuzz.Fuzzer(["cpu"], oracles=(oracle,) if alone else ("reference", "xla"))
    try:
        checked = fuzzer.check(program)
    finally:
        fuzzer.close()
    assert not checked.invalid and checked.findings == [], \
        [f.detail for f in checked.findings] or checked.invalid
    assert checked.oracles.get(oracle) is not None


def test_irfft_compared_with_its_input():
    """Seed 31 program 667 (F32[9, 9, 8, 64] before shrinking): compare(irfft(rfft(x)), x) was
    a coin flip in every element (7 of 32 differed from XLA); the IRFFT node now filters the
    spectrum, so its value is not x."""
    x = np.random.default_rng(667).uniform(-2000, 2000, (9, 8, 64)).astype(np.float32)
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n2", "fft", ["p0"], 442701577),
                         P.Node("n6", "compare", ["n2", "p0"], 335707897)], ["n6"], [x])
    assert "IRFFT" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_sine_of_an_inexact_product():
    """Seed 31 program 953: a map of sin(irfft(rfft(x)) * x) with |x| ~ 1000: the argument's
    rounding error is about 1, so the sine is any number (-0.263 vs XLA's -0.202); periodic
    functions of inexact values now read them scaled into [-1, 1]."""
    rng = np.random.default_rng(953)
    x = (rng.uniform(-2500, 2500, 4096) + 1j * rng.uniform(-2500, 2500, 4096))
    program = P.Program([P.Param("p0", x.shape, "C64")],
                        [P.Node("n6", "fft", ["p0"], 999060927),
                         P.Node("n7", "map", ["n6", "p0"], 145315456)], ["n7"],
                        [x.astype(np.complex64)])
    text = str(P.build(program).module)
    assert "stablehlo.map" in text and "IRFFT" in text
    _passes_on_cpu(program)


def test_batch_norm_of_a_cancelled_fft():
    """Seed 41 program 138: a batch_norm_inference whose scale was a 2-D IRFFT's row of
    cancelled 1e27s (its inputs 1e30), clamped to the op's bound 1e4: a 0.02 there was any
    number in [-1e4, 1e4] (32 of 128 elements 240 off); such values are scaled into [-1, 1]
    first."""
    x = np.random.default_rng(138).integers(-2, 3, (2, 64)).astype(np.float32)
    x[1, 53], x[0, 32] = 1e30, np.inf
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n1", "fft", ["p0"], 754497701),
                         P.Node("n2", "batch_norm_inference", ["n1", "n1"], 159192327)],
                        ["n2"], [x])
    assert "batch_norm_inference" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_narrow_uniform_rng_of_xla():
    """Seed 41 program 159: XLA's CPU rounds a bf16 UNIFORM rng over [-100, 900) up to 900 (128
    of 65536; shlo's stay below: test_fuzz_regressions.py::test_rng_uniform_narrow_float), so
    the property checked of f16 and bf16 values is lo <= x <= hi."""
    x = np.random.default_rng(159).uniform(-1, 1, 65536).astype(np.float32)
    program = P.Program([P.Param("p2", x.shape, "F32")],
                        [P.Node("n0", "rng", ["p2"], 856630514)], ["n0"], [x])
    assert "tensor<65536xbf16>" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_min_reduce_with_nans_is_not_checked_against_xla():
    """Seed 42 program 11: XLA's CPU min over f32[1024, 2048] with NaNs gave -inf (its max/min
    reductions drop NaN); shlo's NaN is the spec's (numpy agrees). XLA is no oracle for a float
    max/min reduce (the interpreter checks those programs it runs)."""
    import shlo
    x = np.random.default_rng(11).uniform(-5, 5, (1024, 2048)).astype(np.float32)
    x[0, 1303], x[0, 140] = np.nan, -np.inf
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n6", "reduce", ["p0"], 206079523)], ["n6"], [x])
    built = P.build(program)
    assert "stablehlo.minimum" in str(built.module) and built.xla_wrong
    got = shlo.compile(str(built.module), target="cpu", cache=False)(x)
    assert np.isnan(np.asarray(got)) and np.isnan(np.min(x))


def test_max_reduce_window_is_not_checked_against_xla():
    """Seed 44 program 222: XLA's CPU max reduce_window of NaNs (1-element windows over f32[1M])
    gave -inf where the spec's (and shlo's) answer is NaN: XLA is no oracle for it either."""
    x = np.full(1 << 20, np.nan, np.float32)
    program = P.Program([P.Param("p2", x.shape, "F32")],
                        [P.Node("n4", "reduce_window", ["p2"], 710197032)], ["n4"], [x])
    built = P.build(program)
    assert "stablehlo.maximum" in str(built.module) and built.xla_wrong


def test_window_sums_of_an_fft_of_a_huge_special():
    """Seed 47 program 43: window sums of adjacent bins of an RFFT whose input held 1e30 at
    index n/2 (its (-1)^k part cancels in each sum) among values of 1000: what is left is f32
    noise of 1e30 (XLA 7.6e22, shlo 0, numpy in f64 1.4e14); an fft's input is clamped to
    1e4, not 1e30."""
    x = np.random.default_rng(43).standard_normal((1, 1, 100)).astype(np.float32) * 1000
    x[0, 0, [50, 52, 92, 98]] = [1e30, np.nan, np.inf, np.inf]
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n4", "fft", ["p0"], 273426990),
                         P.Node("n5", "reduce_window", ["n4"], 493148781)], ["n5"], [x])
    _passes_on_cpu(program)


def test_complex_dot_with_an_infinite_factor():
    """Seed 48 program 9: a complex dot whose one nonzero product is (a + 0i)(inf + 0i): shlo
    gives inf+nanj (the textbook product), XLA nan+nanj; the spec fixes neither, so a complex
    dot's operands are made finite."""
    x = np.array([-7, -5, 0, -5, -9, -15, 0, 25, 7, -7, np.inf, 0, 13, 3, 14], np.float16)
    program = P.Program([P.Param("p1", x.shape, "F16")],
                        [P.Node("n0", "fft", ["p1"], 701764792),
                         P.Node("n5", "dot_general", ["n0", "p1"], 137060383)], ["n5"], [x])
    assert "stablehlo.dot_general" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_f16_window_sum_near_its_largest_value():
    """Seed 49 program 23: an f16 window sum of 65504, 1123, -1143 and -396 is inf in the
    interpreter's and XLA's order and 65088 in shlo's (f32 sums); the spec leaves the order
    open, so f16 values summed n at a time are clamped to 32768 / n."""
    x = np.round(np.random.default_rng(23).standard_normal((7, 16)) * 1000).astype(np.float16)
    x[1, 7:9], x[3, 7:9], x[3, 11], x[6, 9] = [65504, 1123], [-1143, -396], np.inf, np.nan
    program = P.Program([P.Param("p1", x.shape, "F16")],
                        [P.Node("n4", "reduce_window", ["p1"], 619203664)], ["n4"], [x])
    _passes_on_cpu(program)


def test_interpreter_scatter_of_a_value_read_elsewhere():
    """Seed 49 program 264: the reference interpreter's scatter writes into its operand's
    storage, so the operand, also returned, read 0 (the scatter's min) for 1 (shlo's, right);
    the interpreter's form gives its scatter a copy (an identity transpose)."""
    x = np.array([1.0], np.float16)
    program = P.Program([P.Param("p0", x.shape, "F16")],
                        [P.Node("n0", "reduce_window", ["p0"], 462661993),
                         P.Node("n2", "scatter", ["n0", "p0"], 309958638)], ["n2", "n0"], [x])
    _passes_on_cpu(program, "reference")


def test_interpreter_total_order_compare():
    """Seed 70 program 304: `x != x` in the total order (false for every x) of values with a
    NaN was true at the NaN in the reference interpreter, which ignores TOTALORDER (NaN != NaN,
    -0 == 0); XLA was no oracle (a dynamic_update_slice of its own operand). The interpreter's
    form compares integer keys of the bits."""
    x = np.random.default_rng(304).standard_normal((1, 9, 9)).astype(np.float32) * 8
    x[0, 3, 4], x[0, 0, 0] = np.nan, 15.0
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n0", "dynamic_update_slice", ["p1", "p1"], 741899285),
                         P.Node("n1", "compare", ["n0", "n0"], 787473806)], ["n1"], [x])
    assert "TOTALORDER" in str(P.build(program).module)
    _passes_on_cpu(program, "reference")


def test_iota_plus_an_inexact_value():
    """Seed 71 program 306: tan(x) + iota with tan(x) near -1: -0.002031207 (shlo's tan 1 ULP
    of 1 off) for XLA's -0.0020313263 was called wrong; the iota node's add of an inexact
    value now counts as a cancellation."""
    x = np.random.default_rng(306).standard_normal((8, 3, 16)).astype(np.float32)
    x[6, 1, 10] = -0.7864128
    program = P.Program([P.Param("p2", x.shape, "F32")],
                        [P.Node("n1", "unary", ["p2"], 457738650),
                         P.Node("n2", "iota", ["n1"], 364106022)], ["n2"], [x])
    _passes_on_cpu(program)


def test_atan2_of_a_cancelled_zero():
    """Seed 101 program 861: atan2 of a batch_norm_inference with zero scale and offset over a
    negative number: shlo's +pi is IEEE's ((x * 0) + 0 is +0), XLA's -pi folds the + 0 away
    (-0 for a negative x); the generator takes the absolute value of a cancelled operand."""
    x = np.random.default_rng(861).standard_normal((7, 3, 100, 9)).astype(np.float32)
    program = P.Program([P.Param("p0", (), "BF16"), P.Param("p1", (0, 25, 3), "S32"),
                         P.Param("p2", x.shape, "F32")],
                        [P.Node("n1", "batch_norm_inference", ["p2", "p1"], 34194493),
                         P.Node("n2", "binary", ["n1", "p0"], 157811652)], ["n2"],
                        [np.array(-2.75, np.float32).astype("bfloat16"),
                         np.zeros((0, 25, 3), np.int32), x])
    _passes_on_cpu(program)


def test_total_order_compare_of_a_made_nan_vulkan():
    """Seed 105 program 175: remainder(x, 0) compared in the total order; the sign of a NaN an
    operation makes is not specified (XLA's x86 NaN is negative, lavapipe's positive), so
    the generator compares NaNs as positive ones."""
    from conftest import vulkan_or_skip
    vulkan_or_skip()
    x = np.array([-20, -10, -5, -5, 4, 14, 3, -7, 1, 2, 9, -1, 6, 5, -3, 8, -2, 11],
                 np.float32).reshape(6, 3)
    program = P.Program([P.Param("p0", (), "F32"), P.Param("p1", (1,), "S32"),
                         P.Param("p2", (6, 3), "F32")],
                        [P.Node("n1", "fft", ["p1"], 222587357),
                         P.Node("n5", "binary", ["p2", "p0"], 323959626),
                         P.Node("n7", "compare", ["n5", "p1"], 573111056)], ["n1", "n7"],
                        [np.float32(1.7010367), np.array([-10], np.int32), x])
    fuzzer = fuzz.Fuzzer(["vulkan"])
    try:
        checked = fuzzer.check(program)
    finally:
        fuzzer.close()
    assert not checked.invalid and checked.findings == [], [f.detail for f in checked.findings]


def test_total_order_argmax_keeps_its_least_init():
    """Seed 106 program 102: with NaNs made positive in the reducers' total-order compares too,
    an argmax's -NaN init stopped being its least value (the reducer's identity), and XLA,
    which drops an init it takes for an identity, disagreed with shlo; only compare nodes
    make NaNs positive."""
    program = P.Program([P.Param("p1", (1, 3, 6), "C64")],
                        [P.Node("n5", "reduce", ["p1"], 438766139),
                         P.Node("n6", "convolution", ["n5", "n5"], 398361168)], ["n6"],
                        [np.zeros((1, 3, 6), np.complex64)])
    _passes_on_cpu(program)


def test_ffts_of_large_prime_lengths_are_generated():
    """Seeds 43, 44 and 52: an FFT of length 166667 (a prime) was shlo's clean error then (no
    DFT matrix over 4096 long), so the generator made none; shlo-expand-fft computes it by
    Bluestein's convolution now, and the generator makes it again."""
    for n in (166667, 65536):
        x = np.ones(n, np.float32)
        program = P.Program([P.Param("p0", x.shape, "F32")],
                            [P.Node("n1", "fft", ["p0"], 1)], ["n1"], [x])
        assert "stablehlo.fft" in str(P.build(program).module)


def test_scaled_by_a_huge_maximum_against_xla():
    """Seed 58 program 638: tan(x / m) with m = max|x| = 3.18e38 was 0 everywhere in XLA (its
    CPU multiplies by 1 / m, a subnormal it flushes to 0) where 2.04e-36 is right; the scaling
    now multiplies x and m by 2^-64 first past 2^64. XLA alone checks it here (the
    interpreter, which would agree with shlo, stays out)."""
    p1 = np.full((3, 1000), 10, np.float32)
    p1[0, 0] = 38.5
    p2 = np.full((4, 1000), 1.5, np.float32)
    p2[0, 0] = 10      # 10 ** 38.5 = 3.16e38; 1.5 ** 10 / 3.16e38 = 1.8e-37, a normal f32
    program = P.Program([P.Param("p1", p1.shape, "F32"), P.Param("p2", p2.shape, "F32")],
                        [P.Node("n4", "binary", ["p2", "p1"], 741820238),
                         P.Node("n5", "unary", ["n4"], 298670540)], ["n5"], [p1, p2])
    text = str(P.build(program).module)
    assert "stablehlo.power" in text and "stablehlo.tan" in text
    fuzzer = fuzz.Fuzzer(["cpu"], oracles=("xla",))
    try:
        checked = fuzzer.check(program)
    finally:
        fuzzer.close()
    assert not checked.invalid and checked.findings == [], [f.detail for f in checked.findings]
    assert checked.oracles.get("xla") is not None


def test_subnormal_scaled_value_times_infinity():
    """Seed 58 program 638 at a78f3e8: cbrt(tan(x / m) * -inf) with m = 1.6e38 and x = 1 (a
    power of -1 by -inf): tan(6e-39) * -inf is -inf where the subnormal stays (Vulkan, the
    interpreter) and NaN where it is flushed (CPUs, XLA); scaled values below the smallest
    normal are now 0 in the program itself."""
    x = np.full((3, 1000), 1.2739, np.float32)
    x[0, :20] = -np.inf
    x[0, 500] = 1e30    # 1e30 ** 1.2739 = 1.6e38
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n1", "convert", ["p1"], 585757076),
                         P.Node("n3", "pad", ["p1", "n1"], 741690151),
                         P.Node("n4", "binary", ["n3", "p1"], 741820238),
                         P.Node("n5", "unary", ["n4"], 298670540),
                         P.Node("n6", "binary", ["n5", "n1"], 635563495),
                         P.Node("n7", "unary", ["n6"], 385345133)], ["n7"], [x])
    text = str(P.build(program).module)
    assert "stablehlo.power" in text and "stablehlo.tan" in text and "stablehlo.cbrt" in text
    _passes_on_cpu(program, "reference")



def test_exponential_of_empty_fft_bins():
    """Seed 61 program 576: exp of the RFFT of nine 1e4s: bins 1-4 are 0 with f32 noise of
    0.0024 beside bin 0's 90000, so exp gave 1.0024 on Vulkan (1.0015 on cpu) for XLA's 1,
    and exp(90000) = inf left no magnitude to be relative to; an exp of a cancelled value now
    reads it divided by its largest magnitude (both parts by one)."""
    x = np.full(9, 3064182155, np.uint32)
    program = P.Program([P.Param("p0", x.shape, "U32")],
                        [P.Node("n0", "fft", ["p0"], 575587870),
                         P.Node("n2", "unary", ["n0"], 538155160)], ["n2"], [x])
    assert "stablehlo.exponential" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_inexact_value_over_zero():
    """Seed 65 program 403: irfft(rfft(x) / k) divided by a zero-padded divisor: where the
    IRFFT's exact value is 0, its f32 rounding noise over 0 gave +-inf on Vulkan for XLA's
    NaN (0 / 0); a float divide of an inexact value now reads divisors of 0 as 1."""
    x = np.load(os.path.join(HERE, "inexact_value_over_zero", "input_0.npy"))
    d = np.array([1650981843, 359075999, 1348319527, -1525247291, -51979237], np.int32)
    program = P.Program([P.Param("p1", x.shape, "S32"), P.Param("p2", d.shape, "S32")],
                        [P.Node("n4", "fft", ["p1"], 300947931),
                         P.Node("n5", "binary", ["n4", "p2"], 237199683)], ["n5"], [x, d])
    text = str(P.build(program).module)
    assert "stablehlo.divide" in text and "IRFFT" in text
    divisor = text[text.index("stablehlo.divide"):].split("\n")[0].split(",")[1].strip().split()[0]
    assert f"{divisor} = stablehlo.select" in text
    _passes_on_cpu(program)


def test_argsort_of_inexact_keys():
    """Seed 68 program 375: a stable argsort of an inverse FFT's real part over [32, 7] of
    small integers, whose keys tie exactly in real arithmetic (0 and 1/7): rounding ordered
    6 of 224 indices otherwise than XLA's, on cpu as on vulkan. Argsorts are now built only
    of exact keys; inexact ones are sorted as values."""
    x = np.load(os.path.join(HERE, "argsort_of_inexact_ties", "input_0.npy"))
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n0", "fft", ["p0"], 278163123),
                         P.Node("n3", "sort", ["n0"], 123524711)], ["n3"], [x])
    text = str(P.build(program).module)
    assert "stablehlo.sort" in text and "stablehlo.fft" in text and "iota" not in text
    _passes_on_cpu(program)


def test_value_over_a_cancelled_divisor():
    """Seed 99 program 292 (vulkan): x / x of a sorted FFT's real part, where the exact bin is
    0: XLA's FFT gives 0 (0 / 1 after the fuzzer's guard), IREE's 1.1e-15 (1), a rounding
    error 1e-17 of the largest bin; a float divide by a cancelled inexact divisor is now a
    multiply, as for complex numbers."""
    x = np.array([0, 0, 0, -18], np.float32)
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n2", "fft", ["p1"], 853286241),
                         P.Node("n3", "sort", ["n2"], 339189736),
                         P.Node("n7", "binary", ["n3", "n3"], 722084368)], ["n7"], [x])
    text = str(P.build(program).module)
    assert "stablehlo.fft" in text and "stablehlo.divide" not in text
    _passes_on_cpu(program)


def test_convolution_of_cancelled_fft_bins():
    """Seed 111 program 189 (vulkan): a convolution of an IFFT of a constant input, its
    builder's slice dropping the DC bin: every bin it keeps is 0, XLA's exactly, IREE's on
    Vulkan 4.5e-8 of rounding (of the DC bin's 1), with no magnitude left in the array to be
    relative to; a convolution's cancelled error is now relative to its operand's magnitude.
    Checked with such noise added to XLA's own result."""
    x = np.ones((1, 10, 2, 9), np.int8)
    program = P.Program([P.Param("p0", (), "S8"), P.Param("p1", x.shape, "S8")],
                        [P.Node("n6", "fft", ["p1"], 772329589),
                         P.Node("n7", "convolution", ["n6", "p0"], 89465105)], ["n7"],
                        [np.array(-3, np.int8), x])
    built = P.build(program)
    assert built.vals["n7"].scale == "n6" and "stablehlo.convolution" in str(built.module)
    fuzzer = fuzz.Fuzzer(["vulkan"], InProcess())
    want = fuzzer.check(program, targets=["cpu"]).oracles["xla"]
    noisy = [w + np.complex64(-4.47e-8 + 4.47e-8j) * (w == 0) for w in want]
    checked = fuzzer.check(program, given={"vulkan": Result("ok", outputs=noisy)})
    assert checked.findings == [], [f.detail for f in checked.findings]


def test_irfft_of_one_bin_compared_with_its_input():
    """Seed 112 program 364: the IRFFT node's filter 1 / (2 + k) over the last dimension's
    bins was 1 / 2 everywhere for a last dimension of length 1, so the node was x / 2 with
    rounding noise, and x / 2 < x a coin flip at x's zeros (7 of 63 differed from XLA); the
    filter now varies over every transformed dimension."""
    x = np.load(os.path.join(HERE, "irfft_of_one_bin_compared_cpu", "input_0.npy")).view(
        ml_dtypes.bfloat16)
    program = P.Program([P.Param("p0", x.shape, "BF16")],
                        [P.Node("n1", "fft", ["p0"], 920048609),
                         P.Node("n4", "compare", ["n1", "p0"], 800939864)], ["n4"], [x])
    assert "IRFFT" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_sort_of_computed_nans():
    """Seed 113 program 316 (vulkan): a total-order sort of sqrt of f16 values, half of them
    negative: the generator made sqrt's NaNs +NaN with select(x != x, NaN, x), which XLA folds
    to x, so XLA sorted x86's -NaN first (the reference interpreter and shlo on vulkan: +NaN
    last); the NaNs are now abs(x). shlo's cpu folds it as XLA does; against the interpreter
    alone the folded form is the one that differs."""
    x = np.random.default_rng(316).uniform(-3, 3, 2048).astype(np.float16)
    program = P.Program([P.Param("p2", x.shape, "F16")],
                        [P.Node("n4", "unary", ["p2"], 229649483),
                         P.Node("n5", "sort", ["n4"], 355588375)], ["n5"], [x])
    text = str(P.build(program).module)
    assert "stablehlo.sqrt" in text and "TOTALORDER" in text
    _passes_on_cpu(program, "reference", alone=True)


def test_power_of_a_cancelled_exponent():
    """Seed 114 program 398 (vulkan): pow(|x|, d), d a dot_general of 166667 f32 values of
    mixed sign against a strided view of themselves: d's rounding (eps times the sum of the
    terms' magnitudes) times ln|x| put one element 1.3e-3 from XLA's, which the power's
    error estimate (twice its operands') did not allow. A cancelled exponent now makes a
    product instead."""
    x = np.random.default_rng(398).uniform(-4.5, 4.5, (1, 166667)).astype(np.float32)
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n0", "dot_general", ["p1", "p1"], 747037590),
                         P.Node("n2", "binary", ["p1", "n0"], 411625245)], ["n2"], [x])
    text = str(P.build(program).module)
    assert "stablehlo.dot_general" in text and "stablehlo.power" not in text
    _passes_on_cpu(program)


def test_scatter_into_a_view_of_its_updates_source():
    """Seed 120 program 106: scatter(transpose(y), i, y[:3]) of y f32[3, 1, 2, 1]: XLA's CPU
    makes the transpose a bitcast, scatters into y's buffer in place and reads the third
    update after the second was added (got log 1.5 + log 2 where log 1.5 + 0 is right). XLA
    is no oracle for a scatter into a view of its updates' source."""
    import shlo
    x = np.array([-1, 1, -1, 1, 0, -1], np.float32).reshape(3, 1, 2, 1)
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n0", "fft", ["p1"], 958617211),
                         P.Node("n1", "unary", ["n0"], 65097998),
                         P.Node("n2", "transpose", ["n1"], 236951659),
                         P.Node("n3", "scatter", ["n2", "n1"], 610091375)], ["n3"], [x])
    built = P.build(program)
    assert "scatter into a view of its updates' source" in built.xla_wrong
    y = np.log(np.abs(np.fft.ifft(x.astype(np.float64), axis=2).real) + 1)   # IFFT, log1p(|.|)
    want = y.transpose(0, 1, 3, 2).copy()
    want[:, 0, 0, 0] += y.ravel()[:3]
    got = shlo.compile(str(built.module), target="cpu", cache=False)(x)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_maximum_of_a_clamp_by_crossed_bounds():
    """Seed 121 program 192: maximum(clamp(p, p, hi), p) with hi < p is p, but XLA's simplifier
    takes a clamp's min <= max and returned the clamp (-64 for 1). XLA is no oracle for a
    clamp by data bounds; the program it checks (`xla_safe`) orders the bounds."""
    p = np.ones((2, 5), np.int32)
    program = P.Program([P.Param("p0", p.shape, "S32"), P.Param("p2", (1,), "S64")],
                        [P.Node("n0", "fft", ["p2"], 1063071270),
                         P.Node("n3", "clamp", ["p0", "p0", "n0"], 976123183),
                         P.Node("n4", "binary", ["n3", "p0"], 952645343)], ["n4"],
                        [p, np.array([-15], np.int64)])
    assert "a clamp by bounds that may cross" in P.build(program).xla_wrong
    assert not P.build(program, xla_safe=True).xla_wrong
    _passes_on_cpu(program)


def test_imaginary_part_of_a_quotient_by_itself():
    """Seed 121 program 30: imag(z / z) is 0 up to z's rounding (XLA -6.8e-9, shlo -0.0 for
    |z| ~ 1000): a part of a complex value errs relative to |z|, not to the part's own
    magnitude."""
    z = (np.array([-456, -1587, -588, -260, 258, -162, 558, 1, -2747, 205, -892, -966, 703,
                   -1747, 91, -1004]) + 1j * np.array(
        [379, 353, 1296, 446, -434, 2078, -16, 630, -67, -1631, 1169, 502, -864, 162, 176,
         -656])).astype(np.complex64)
    program = P.Program([P.Param("p0", z.shape, "C64")],
                        [P.Node("n1", "binary", ["p0", "p0"], 548736669),
                         P.Node("n3", "unary", ["n1"], 176576282),
                         P.Node("n5", "convolution", ["p0", "p0"], 230669026)], ["n3", "n5"],
                        [z])
    _passes_on_cpu(program)


def test_floor_of_a_batch_norm_of_integers():
    """Seed 119 program 145: floor(batch_norm_inference(x)) of small integers x, where x equals
    its feature's mean, is floor of an integer in real arithmetic and 1 ulp either side in f32
    (5 of 90 elements -16 for XLA's -17); a step function of an inexact value now reads it 0.3
    off its steps."""
    x = np.array([19, -20, -8, -16, 19, 15, -19, -1, -6, 15, -19, -7, -9, -19, -3, -7, -16, 11,
                  -3, 19, -10, -6, -2, 8, -2, 19, -12, 16, 19, -16, -16, 19, -12, 1, 8, -10, 17,
                  0, 2, 11, -13, 7, -3, 15, -6, -18, 16, 15, 9, 9, 19, 10, -17, -11, -8, -3, 19,
                  -19, -16, 20, 16, -17, 5, 19, 9, 20, 5, 15, 12, -17, 19, 12, 18, 7, -18, 16,
                  -2, 0, 17, -18, 4, 12, 10, -6, 20, -17, 12, 5, 4, 6]).reshape(5, 1, 9, 2)
    program = P.Program([P.Param("p1", x.shape, "S64")],
                        [P.Node("n0", "batch_norm_inference", ["p1", "p1"], 838851885),
                         P.Node("n2", "unary", ["n0"], 300685957)], ["n2"], [x])
    assert "stablehlo.floor" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_batch_norm_of_its_own_mean():
    """Seed 149 program 284: batch_norm_inference(x) * x where x equals its feature's mean
    (both clamped to 1e4): the spec's (x - mean) is 0 and the result the offset, -10.312; XLA
    folds the mean into the offset, which cancels, 8.6e-4 off, and the interpreter did not run
    batch_norm ops. The fuzzer now gives the interpreter the spec's formula."""
    x = np.array([[-8.407821 - 4.24275j, 2, 3, 4, 5, -8.407821 - 4.24275j, 7, 8],
                  [1, 2, 3, 4, 5, -10.31214 + 11.000603j, 7, 8],
                  [9, 10, 11, 12, 13, 65504, 15, 16],
                  [1, -2, 3, -4, 5, 5.50339 - 11.28329j, 7, -8]], np.complex64)
    program = P.Program([P.Param("p0", x.shape, "C64")],
                        [P.Node("n1", "batch_norm_inference", ["p0", "p0"], 944900600),
                         P.Node("n2", "binary", ["n1", "p0"], 1049108248)], ["n2"], [x])
    reference = str(P.build(program, exchange=True).module)
    assert "batch_norm" not in reference and fuzz.interpretable(reference)
    _passes_on_cpu(program, oracle="reference")


def test_convolution_of_large_values():
    """Seed 139 program 81: a convolution of values clamped to +-1e30 by integer kernels of
    +-1.7e9: products overflowed, and the order of a sum of +inf and -inf decided between inf
    (shlo) and NaN (XLA); the interpreter does not run kernel dilation. Convolution operands
    are now clamped to 1e15 (f32), so their sums stay finite."""
    x = np.array([-4.891e-25, 4.5657e9, -2.3e-35, -2.1e-35, 7.5257e20, 534.24, 3.2, -3.98e-11,
                  9.5e9, -2.53e-10, 1.979e29, -385.58, 3.067e33, -3.16e-13, 31644.9, -3.2e7,
                  -2.189e26, -2.4e-29, -2.3e-16, -5.16e10, 9.49e24, -3.09e-12, 3.15e-15,
                  2.52e21, -1.68e-25, 2.07e-37, -1.19e27, 7.03e-7, 1.87e17, 6.43e21, -0.322,
                  1.16e17, 1133.9, -3.32e26, 9.667e30, 2.9e-19, -1.45e13, -8.1e15, 6.4e-19,
                  -5.3e-19, 4.1e-27, 9885.7, -1.2425e37, 8.236e33, 2.57e-4, -4.9e19, 7.0e-4,
                  1.05e-29, 3.8e-13, 9.2e-29, -5.66e10, 6.6e-27, 1712881.25, 2.48e24, -7.525e34,
                  -1.87e-14, 6.5e-25, 1.185e23, -2.5468e31, 0.0548, -1.96e32, 1.24e-24, 4.32e27,
                  -1.074e23], np.float32)
    kernel = np.array([-1760076150, 1334317475], np.int32)
    program = P.Program([P.Param("p0", (2,), "S32"), P.Param("p1", (64,), "F32")],
                        [P.Node("n2", "convolution", ["p1", "p0"], 541610274)], ["n2"],
                        [kernel, x])
    assert "9.99999986E+14" in str(P.build(program).module)     # 1e15 in f32
    _passes_on_cpu(program)


def test_f64_batch_norm_epsilon():
    """Seed 151 program 373: an f64 batch_norm_inference with epsilon 0.1, an f32 attribute
    (0.1000000015): the interpreter's formula added 0.1 in f64, 6.5e-10 off the op's."""
    program = P.Program([P.Param("p0", (1,), "F64")],
                        [P.Node("n4", "batch_norm_inference", ["p0", "p0"], 156349931),
                         P.Node("n5", "dynamic_update_slice", ["n4", "n4"], 75812872)], ["n5"],
                        [np.array([1.0])])
    _passes_on_cpu(program, oracle="reference")


def test_fft_of_an_fft_of_ones():
    """Seed 153 program 333: an FFT of 5208 ones (5208 in bin 0, rounding noise in the others),
    scaled into [-1, 1], transformed again: every output element sums the first transform's
    noise, which differs between implementations (1.2e-7 apart on 1.9e-4). An FFT's error now
    grows with the square root of its length times its input's."""
    x = np.ones(5208, bool)
    program = P.Program([P.Param("p3", (5208,), "PRED")],
                        [P.Node("n6", "fft", ["p3"], 216626056),
                         P.Node("n7", "fft", ["n6"], 887003676)], ["n7"], [x])
    _passes_on_cpu(program)


def test_select_and_scatter_keyed_by_a_cancelled_real_part():
    """Seed 155 program 188: a select_and_scatter keyed by the real part of a complex
    convolution of (a + ai) by (b + bi), whose real parts are 0 (shlo) or rounding noise
    (XLA, 1e-2 beside 3e6 imaginary parts); scaled by the real parts' own largest magnitude,
    the noise became keys up to 3.7 apart. A complex value's real part is scaled by |z|'s."""
    z = np.array([[173.64276, 710.8717], [-1202.9507, 1732.8518], [-2030.2866, -277.61905],
                  [2248.996, 2017.001]], np.float32)
    program = P.Program([P.Param("p0", (2, 5), "F32"), P.Param("p1", (4, 2), "C64")],
                        [P.Node("n2", "rng_bit_generator", ["p1", "p1"], 913037917),
                         P.Node("n3", "convolution", ["p1", "p1"], 1050065790),
                         P.Node("n4", "select_and_scatter", ["n3", "p0"], 789948874)],
                        ["n2", "n4"],
                        [np.ones((2, 5), np.float32), (z + 1j * z).astype(np.complex64)])
    _passes_on_cpu(program)


def test_boolean_of_cancelled_fft_bins():
    """Seed 155 program 486: max(x, bool(real(fft(x)))) of booleans, whose bins that cancel
    to 0 are 0 or rounding noise, true or false by luck (5 of 32 differed from XLA). An
    inexact value becomes a boolean as integers do: scaled and rounded first."""
    x = np.array([[1, 0, 0, 0, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1, 1, 0],
                  [0, 0, 1, 1, 1, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1, 1]], bool)
    program = P.Program([P.Param("p1", x.shape, "PRED")],
                        [P.Node("n3", "fft", ["p1"], 634267548),
                         P.Node("n5", "binary", ["p1", "n3"], 591982388)], ["n5"], [x])
    _passes_on_cpu(program)


def test_product_of_zeros_and_an_overflowing_row():
    """Seed 156 program 325: the product of f32[8, 4096] whose rows 2 and 5 hold integers up
    to 20 and the other rows zeros: NaN (inf * 0) where rows are multiplied first, -0 in
    XLA's and the interpreter's order. Products now read magnitudes no order can overflow."""
    x = np.zeros((8, 4096), np.float32)
    rng = np.random.default_rng(156)
    x[[2, 5]] = rng.integers(1, 21, (2, 4096)) * rng.choice([-1, 1], (2, 4096))
    program = P.Program([P.Param("p1", x.shape, "F32")],
                        [P.Node("n2", "reduce", ["p1"], 258870789)], ["n2"], [x])
    assert "stablehlo.multiply" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_product_of_cancelled_fft_bins():
    """Seed 167 program 182: the product along rows of the real parts of an FFT of f32[32,
    256] rows of small integers and one 65504: two bins of row 27 cancel to 0, exactly in
    XLA's FFT and rounding noise in shlo's, which the product's magnitude clamp made 0.84:
    -0 against 9.2e18. Such values within their noise of 0 are made 0 first."""
    rng = np.random.default_rng(167)
    x = rng.integers(-1, 3, (32, 256)).astype(np.float32)
    x[27] = np.tile([1, 1, 1, -1], 64)          # bins of exactly 0 in real arithmetic
    x[27, 15] = 65504
    program = P.Program([P.Param("p0", x.shape, "F32")],
                        [P.Node("n0", "fft", ["p0"], 509368415),
                         P.Node("n1", "reduce", ["n0"], 448343754)], ["n1"], [x])
    assert "stablehlo.multiply" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_compare_of_cancelled_ifft_bins():
    """Seed 170 program 318: NE of an IFFT over [5, 1, 14] of a constant s64 array (clamped
    to 1e4) and a zero-padded scalar: the bins that cancel are exactly 0 in XLA and noise in
    shlo (875 of 1750 differing on cpu). Compares of cancelled values are made on a grid."""
    x = np.full((25, 5, 1, 14), 6471325547414592136, np.int64)
    program = P.Program([P.Param("p0", (), "S64"), P.Param("p1", x.shape, "S64")],
                        [P.Node("n3", "fft", ["p1"], 179763086),
                         P.Node("n5", "compare", ["n3", "p0"], 371796330)], ["n5"],
                        [np.int64(3), x])
    assert "stablehlo.compare" in str(P.build(program).module)
    _passes_on_cpu(program)


def test_gather_of_a_dynamic_slice_out_of_range():
    """Seed 159 program 80: a gather at index -87 (clamped to 0 by the spec) of a 400x208
    dynamic_slice at column 20 of f64[1024, 257]: XLA folds the two into one gather at column
    20 - 87, clamped to 0, and read column 0 (337 of 263168 elements). Such a gather is no
    XLA check unless its indices are in range (`xla_safe`)."""
    x = np.random.default_rng(159).standard_normal((1024, 257)) * 10
    x[0, 0] = 20.549
    program = P.Program([P.Param("p0", (), "F32"), P.Param("p1", x.shape, "F64")],
                        [P.Node("n1", "dynamic_slice", ["p1", "p1"], 104373799),
                         P.Node("n2", "gather", ["n1", "p0"], 321894967),
                         P.Node("n4", "binary", ["p1", "n2"], 540043984)], ["n4"],
                        [np.float32(-1347.7189), x])
    assert P.build(program).xla_wrong == ["a gather of a dynamic_slice"]
    _passes_on_cpu(program, alone=True)


def test_sign_of_a_dot_of_one_product():
    """Seed 157 program 186: rsqrt of a batched dot_general without contracting dimensions of
    -293 by 0: -0 (one product, no init: XLA, shlo) or +0 (the interpreter adds its +0 init),
    then -inf or inf; the spec leaves the count of inits in a sum open. Float sums' zeros are
    now made +0."""
    program = P.Program([P.Param("p0", (), "F32"), P.Param("p1", (2,), "F64")],
                        [P.Node("n1", "dot_general", ["p1", "p0"], 12558324),
                         P.Node("n2", "unary", ["n1"], 850447651),
                         P.Node("n3", "reduce", ["n2"], 607431911)], ["n3"],
                        [np.float32(1.0), np.array([348.40802607, -293.36325537])])
    _passes_on_cpu(program, oracle="reference", alone=True)


@pytest.mark.parametrize("nodes", [
    [("n4", "reduce_window", ["n1"], 74875661)],
    [("n4", "reduce_window", ["n1"], 74875661), ("n5", "unary", ["n4"], 208173281)],
    [("n4", "reduce_window", ["n1"], 74875661), ("n6", "unary", ["n4"], 645833666)]],
    ids=["window", "cos", "abs"])
def test_real_parts_of_a_product_of_equal_parts(nodes):
    """Seed 163 program 140: the real parts of a convolution of (a + ai) by (a + ai), 0 for
    shlo and 2.3e12 of rounding noise beside 1e20 imaginary parts for XLA, through a max
    window; then cos of them scaled into [-1, 1] by their own magnitude (1 against 0.54), and
    abs of them. A real part's error is relative to |z|: scaled by it, and abs keeps it."""
    x = np.full((3, 1, 5), 3.2510528e9 * (1 + 1j), np.complex64)
    program = P.Program([P.Param("p2", x.shape, "C64")],
                        [P.Node("n1", "convolution", ["p2", "p2"], 928577537)] +
                        [P.Node(*n) for n in nodes], [nodes[-1][0]], [x])
    _passes_on_cpu(program)
