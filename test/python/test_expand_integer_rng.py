"""shlo-expand-integer-rng: stablehlo.rng UNIFORM over integers, checked statistically on CPU
and Vulkan: every value in [a, b), every value of a small range drawn with about its share,
the mean within a few standard errors of (a + b - 1) / 2; b <= a gives a; i1 gives a. a and b
are runtime arguments (constants would let IREE fold the program). One module.
"""
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

N = 20000
# name: (element type, numpy dtype, a, b)
CASES = {
    "s32_small": ("i32", np.int32, -5, 37),
    "s32_wide": ("i32", np.int32, -2 ** 31, 2 ** 31 - 1),
    "u32_full": ("ui32", np.uint32, 0, 2 ** 32 - 1),
    "s8_full": ("i8", np.int8, -128, 127),
    "u8_small": ("ui8", np.uint8, 250, 255),
    "s16": ("i16", np.int16, -1000, 3000),
    "u16_top": ("ui16", np.uint16, 65530, 65535),
    "s64_wide": ("i64", np.int64, -2 ** 62, 2 ** 62),
    "s64_small": ("i64", np.int64, 10 ** 15, 10 ** 15 + 7),
    "u64_top": ("ui64", np.uint64, 2 ** 64 - 9, 2 ** 64 - 1),
    "u64_full": ("ui64", np.uint64, 0, 2 ** 64 - 1),
}
SHAPE = (4, N // 4)


def _function(name, element):
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}x{element}>"
    return (f"func.func @{name}(%a: tensor<{element}>, %b: tensor<{element}>) -> {t} {{\n"
            f"  %s = stablehlo.constant dense<[{SHAPE[0]}, {SHAPE[1]}]> : tensor<2xi64>\n"
            f"  %0 = \"stablehlo.rng\"(%a, %b, %s) {{rng_distribution = "
            f"#stablehlo<rng_distribution UNIFORM>}} : (tensor<{element}>, tensor<{element}>, "
            f"tensor<2xi64>) -> {t}\n  return %0 : {t}\n}}")


TEXT = "\n".join([_function(n, c[0]) for n, c in CASES.items()]
                 + [_function("pred", "i1")])


def _check_uniform(exe, name):
    _, dtype, a, b = CASES[name]
    got = np.asarray(exe.function(name)(dtype(a), dtype(b)))
    assert got.dtype == dtype and got.shape == SHAPE
    values = got.astype(object).reshape(-1)            # exact for 64-bit values
    assert min(values) >= a and max(values) < b, f"{name}: values outside [{a}, {b})"
    n = b - a
    if n <= 64:
        counts = np.bincount(np.array([v - a for v in values], dtype=np.int64), minlength=n)
        assert (counts > 0).all(), f"{name}: values never drawn: {np.flatnonzero(counts == 0)}"
        assert (np.abs(counts - N / n) < 0.25 * N / n).all(), f"{name}: counts {counts}"
    # the mean of a discrete uniform [a, b): (a + b - 1) / 2, standard deviation ~ n / sqrt(12)
    mean = float(sum((v - a) for v in values)) / N
    error = abs(mean - (n - 1) / 2)
    assert error < 5 * n / np.sqrt(12 * N), f"{name}: mean offset {mean} vs {(n - 1) / 2}"


def _check_degenerate(exe):
    """b <= a: the spec leaves the result implementation-defined; shlo returns a. i1: the only
    non-empty range is [false, true), whose values are all false."""
    got = np.asarray(exe.function("s32_small")(np.int32(7), np.int32(7)))
    assert (got == 7).all()
    got = np.asarray(exe.function("s32_small")(np.int32(7), np.int32(-3)))
    assert (got == 7).all()
    for a, b in ((False, True), (True, True), (True, False)):
        got = np.asarray(exe.function("pred")(np.bool_(a), np.bool_(b)))
        assert (got == a).all(), f"pred rng [{a}, {b})"


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.every_case
def test_integer_rng_is_uniform_on_cpu(cpu, name):
    _check_uniform(cpu, name)


def test_empty_ranges_and_booleans_give_a(cpu):
    _check_degenerate(cpu)


def test_vulkan_integer_rng_is_uniform(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for name in CASES:
        _check_uniform(exe, name)
    _check_degenerate(exe)


def test_normal_over_integers_is_rejected_by_the_verifier(ctx):
    text = ("func.func @main(%a: tensor<i32>, %b: tensor<i32>) -> tensor<4xi32> {\n"
            "  %s = stablehlo.constant dense<[4]> : tensor<1xi64>\n"
            "  %0 = \"stablehlo.rng\"(%a, %b, %s) {rng_distribution = "
            "#stablehlo<rng_distribution NORMAL>} : (tensor<i32>, tensor<i32>, tensor<1xi64>)"
            " -> tensor<4xi32>\n  return %0 : tensor<4xi32>\n}")
    with pytest.raises(shlo.Error, match="mu and sigma must be floats"):
        shlo.parse_module(text, context=ctx)


def test_normal_over_integers_is_rejected_by_the_builder(ctx):
    from iree.compiler import ir
    from shlo.dialect import stablehlo
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            i32 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))
            shape = ir.RankedTensorType.get([1], ir.IntegerType.get_signless(64))
            a = stablehlo.constant(0, result_type=i32)
            s = stablehlo.constant(np.array([4]), result_type=shape)
            with pytest.raises(shlo.Error, match="NORMAL needs floating-point a and b"):
                stablehlo.rng(a, a, s, rng_distribution="NORMAL")


# (element, numpy dtype, a, b): UNIFORM over floats narrower than f32; IREE returned b (bf16)
# or NaN (f16) for [-100, 900) (shlo-fuzz seed 30 program 173)
NARROW = [("bf16", "bfloat16", -100.0, 900.0), ("f16", "float16", -100.0, 900.0),
          ("f16", "float16", -3.0, 0.0), ("bf16", "bfloat16", -5.0, -1.0),
          ("f8E4M3FN", "float8_e4m3fn", -2.0, 6.0), ("f16", "float16", 1.0, 1.0009765625)]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_narrow_float_uniform_stays_below_b(ctx, target):
    """262144 values per range, a and b run-time arguments: every value in [a, b), the mean
    within 1 % of the range (plus the type's rounding) of (a + b) / 2, both ends reached."""
    import ml_dtypes
    if target == "vulkan":
        vulkan_or_skip()
    text = "\n".join(
        f"func.func @r{k}(%a: tensor<{e}>, %b: tensor<{e}>) -> tensor<512x512x{e}> {{\n"
        f"  %s = stablehlo.constant dense<[512, 512]> : tensor<2xi64>\n"
        f"  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<{e}>, "
        f"tensor<{e}>, tensor<2xi64>) -> tensor<512x512x{e}>\n"
        f"  return %0 : tensor<512x512x{e}>\n}}" for k, (e, _, _, _) in enumerate(NARROW))
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    for k, (element, dtype_name, a, b) in enumerate(NARROW):
        dtype = getattr(ml_dtypes, dtype_name, None) or np.dtype(dtype_name)
        got = np.asarray(exe.function(f"r{k}")(np.array(a, dtype), np.array(b, dtype)))
        values = got.astype(np.float64)
        outside = int(((values < a) | (values >= b) | np.isnan(values)).sum())
        assert outside == 0, f"{element} [{a}, {b}): {outside} of {values.size} outside"
        step = float(np.abs(np.spacing(np.array(max(abs(a), abs(b)), dtype)).astype(np.float64))) \
            if dtype != ml_dtypes.float8_e4m3fn else 0.5
        assert abs(values.mean() - (a + b) / 2) < 0.01 * (b - a) + step, element
        assert values.min() < a + 0.01 * (b - a) + step and values.max() > b - 0.01 * (b - a) - step
