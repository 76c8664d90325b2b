"""XlaBuilder element-wise ops (unary, binary with XLA's implicit broadcasting, comparisons incl.
the TotalOrder forms, bitwise, complex, Clamp, Select, ReducePrecision) on CPU and Vulkan.

Every case runs with runtime inputs in one module per target; oracles are numpy (float64
where it matters) written here.
"""
import math

import ml_dtypes
import numpy as np
import pytest

from shlo import xla
from xla_suite import Case, Suite, build_error, numeric_test, rng

R = rng(4)
F32 = np.float32
I32 = np.int32
U32 = np.uint32


def f32(a):
    return np.asarray(a, F32)


def uniform(lo, hi, n=48):
    return f32(R.uniform(lo, hi, n))


def unary(name, op, oracle, x, rtol=2e-6, atol=1e-6, **kw):
    return Case(name, (x,), lambda b, a: op(a), lambda a: oracle(a), rtol=rtol, atol=atol, **kw)


def binary(name, op, oracle, x, y, rtol=2e-6, atol=1e-6, **kw):
    return Case(name, (x, y), lambda b, a, c: op(a, c), lambda a, c: oracle(a, c),
                rtol=rtol, atol=atol, **kw)


def via64(fn, dtype=F32):
    """Evaluate fn in float64 and round once to the result type."""
    return lambda *a: np.asarray(fn(*[np.asarray(v, np.float64) for v in a]), dtype)


def total_order_key(x):
    """XLA's total order on f32: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN."""
    bits = x.view(I32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF) - 1, bits)


def round_afz(x):
    return np.copysign(np.floor(np.abs(x.astype(np.float64)) + 0.5), x).astype(x.dtype)


def clz32(x):
    u = x.astype(np.int64) & 0xFFFFFFFF
    return np.array([32 - int(v).bit_length() for v in u], I32)


def popcount32(x):
    u = x.astype(np.int64) & 0xFFFFFFFF
    return np.array([bin(int(v)).count("1") for v in u], I32)


def shift(kind):
    """XLA's shifts: an amount >= the bit width gives 0 (sign fill for arithmetic)."""
    def oracle(x, s):
        x64, s64 = x.astype(np.int64), s.astype(np.int64)
        big = (s64 < 0) | (s64 >= 32)
        safe = np.where(big, 0, s64)
        if kind == "left":
            out = np.where(big, 0, (x64 << safe) & 0xFFFFFFFF)
        elif kind == "logical":
            out = np.where(big, 0, (x64 & 0xFFFFFFFF) >> safe)
        else:
            out = np.where(big, np.where(x64 < 0, -1, 0), x64 >> safe)
        return (np.asarray(out, np.int64) & 0xFFFFFFFF).astype(np.uint32).view(I32)
    return oracle


def reduce_precision_oracle(dtype):
    def oracle(x):
        with np.errstate(over="ignore"):        # out of range -> inf is the point
            return x.astype(dtype).astype(F32)
    return oracle


ANGLES = uniform(-6, 6)
SPECIALS = f32([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 3e38, -1e-30, 7.0])
HALVES = f32([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -3.49, 0.49, 2.51, -0.0, 1e7 + 1])
INTS = np.array([0, 1, -1, 7, -8, 123456, -123456, 2**31 - 1, -2**31, 65536, 255, -256], I32)
SHIFTS = np.array([0, 1, 3, 31, 32, 33, 5, 4, 1, 16, 8, 100], I32)
DIVISORS = np.array([3, -3, 2, -7, 5, 11, -13, 2, 3, -1000, 7, 9], I32)
BOOLS_A = np.array([True, True, False, False])
BOOLS_B = np.array([True, False, True, False])
CMP_A = f32([1.0, 2.0, np.nan, -0.0, np.inf, -np.inf, 3.0, -np.nan, 0.0, 5.0])
CMP_B = f32([1.0, 3.0, 1.0, 0.0, np.inf, 2.0, np.nan, -np.nan, -0.0, -5.0])
COMPLEX = (R.standard_normal(16) + 1j * R.standard_normal(16)).astype(np.complex64)
MAT = f32(R.standard_normal((3, 4)))
ROW = f32(R.standard_normal(4))
COL = f32(R.standard_normal(3))
erf = np.vectorize(math.erf)

CASES = [
    # --- unary, f32
    unary("abs", xla.Abs, np.abs, SPECIALS),
    unary("neg", xla.Neg, np.negative, SPECIALS),
    unary("sign", xla.Sign, np.sign, SPECIALS),
    unary("ceil", xla.Ceil, np.ceil, HALVES),
    unary("floor", xla.Floor, np.floor, HALVES),
    unary("round", xla.Round, round_afz, HALVES, rtol=0, atol=0),
    unary("round_nearest_afz", xla.RoundNearestAfz, round_afz, HALVES, rtol=0, atol=0),
    unary("round_nearest_even", xla.RoundNearestEven, np.rint, HALVES, rtol=0, atol=0),
    unary("is_finite", xla.IsFinite, np.isfinite, SPECIALS),
    unary("cos", xla.Cos, via64(np.cos), ANGLES),
    unary("sin", xla.Sin, via64(np.sin), ANGLES),
    unary("tan", xla.Tan, via64(np.tan), uniform(-1.4, 1.4), rtol=1e-5),
    unary("tanh", xla.Tanh, via64(np.tanh), uniform(-8, 8)),
    unary("cosh", xla.Cosh, via64(np.cosh), uniform(-8, 8), rtol=1e-5),
    unary("exp", xla.Exp, via64(np.exp), uniform(-20, 20), rtol=4e-6),
    unary("expm1", xla.Expm1, via64(np.expm1), f32(np.r_[uniform(-3, 3, 20), 1e-6, -1e-7]),
          rtol=4e-6, atol=0),
    unary("log", xla.Log, via64(np.log), uniform(1e-3, 1e4), rtol=4e-6),
    unary("log1p", xla.Log1p, via64(np.log1p), f32(np.r_[uniform(-0.9, 10, 20), 1e-7, -1e-6]),
          rtol=4e-6, atol=0),
    unary("logistic", xla.Logistic, via64(lambda x: 1 / (1 + np.exp(-x))), uniform(-20, 20)),
    unary("sqrt", xla.Sqrt, via64(np.sqrt), uniform(0, 100)),
    unary("rsqrt", xla.Rsqrt, via64(lambda x: 1 / np.sqrt(x)), uniform(0.01, 100), rtol=4e-6),
    unary("cbrt", xla.Cbrt, via64(np.cbrt), uniform(-100, 100), rtol=4e-6),
    unary("erf", xla.Erf, via64(erf), uniform(-4, 4)),
    # result_accuracy (the seeds' optional ResultAccuracy; XLA's mode names as strings)
    Case("exp_result_accuracy_highest", (uniform(-10, 10),),
         lambda b, x: xla.Exp(x, result_accuracy="HIGHEST"), via64(np.exp), rtol=4e-6),
    Case("tanh_result_accuracy_default", (uniform(-4, 4),),
         lambda b, x: xla.Tanh(x, result_accuracy="DEFAULT"), via64(np.tanh), atol=1e-6),
    # --- reduce precision: to f16 (5, 10) and bf16 (8, 7), round to nearest even, overflow inf
    unary("reduce_precision_f16", lambda x: xla.ReducePrecision(x, 5, 10),
          reduce_precision_oracle(np.float16),
          f32([1.0, 1.0009765625, 1.00048828125, 1.00146484375, 3.14159, -65504.0, 65520.0,
               1e5, -1e5, np.inf, 0.0, 1e-3]), rtol=0, atol=0),
    unary("reduce_precision_bf16", lambda x: xla.ReducePrecision(x, exponent_bits=8,
                                                                 mantissa_bits=7),
          reduce_precision_oracle(ml_dtypes.bfloat16), uniform(-1e4, 1e4), rtol=0, atol=0),
    # --- complex
    binary("complex", xla.Complex, lambda a, c: (a + 1j * c.astype(np.complex64)),
           uniform(-3, 3, 16), uniform(-3, 3, 16)),
    unary("real", xla.Real, np.real, COMPLEX),
    unary("imag", xla.Imag, np.imag, COMPLEX),
    unary("conj", xla.Conj, np.conj, COMPLEX),
    unary("real_of_f32", xla.Real, lambda x: x, ANGLES),
    unary("imag_of_f32", xla.Imag, np.zeros_like, ANGLES),
    unary("abs_complex", xla.Abs, lambda x: np.abs(x.astype(np.complex128)).astype(F32),
          COMPLEX, rtol=4e-6),
    # --- integer unary
    unary("abs_s32", xla.Abs, np.abs, INTS),
    unary("neg_s32", xla.Neg, np.negative, INTS),
    unary("sign_s32", xla.Sign, np.sign, INTS),
    unary("not_s32", xla.Not, np.invert, INTS),
    unary("not_pred", xla.Not, np.logical_not, BOOLS_A),
    unary("clz_s32", xla.Clz, clz32, INTS),
    unary("popcnt_s32", xla.PopulationCount, popcount32, INTS),
    unary("clz_u32", xla.Clz, lambda x: clz32(x).astype(U32), INTS.view(U32)),
    # --- binary, f32
    binary("add", xla.Add, np.add, uniform(-5, 5), uniform(-5, 5)),
    binary("sub", xla.Sub, np.subtract, uniform(-5, 5), uniform(-5, 5)),
    binary("mul", xla.Mul, np.multiply, uniform(-5, 5), uniform(-5, 5)),
    binary("div", xla.Div, np.divide, uniform(-5, 5), uniform(0.5, 5)),
    binary("max", xla.Max, np.maximum, CMP_A, CMP_B),
    binary("min", xla.Min, np.minimum, CMP_A, CMP_B),
    binary("pow", xla.Pow, via64(np.power), uniform(0.1, 4), uniform(-3, 3), rtol=4e-6),
    binary("rem", xla.Rem, np.fmod, uniform(-20, 20), f32(R.choice([-3.0, 2.5, 7.0, -0.75], 48))),
    binary("atan2", xla.Atan2, via64(np.arctan2), uniform(-3, 3), uniform(-3, 3)),
    # --- binary, s32 (division truncates toward zero, remainder takes the dividend's sign)
    binary("add_s32", xla.Add, np.add, INTS, INTS[::-1].copy()),
    binary("mul_s32", xla.Mul, np.multiply, INTS, DIVISORS),
    binary("div_s32", xla.Div, lambda a, c: (np.sign(a) * np.sign(c) * (np.abs(a.astype(np.int64))
                                             // np.abs(c))).astype(I32), INTS, DIVISORS),
    binary("rem_s32", xla.Rem, np.fmod, INTS, DIVISORS),
    binary("max_s32", xla.Max, np.maximum, INTS, DIVISORS),
    binary("min_s32", xla.Min, np.minimum, INTS, DIVISORS),
    binary("pow_s32", xla.Pow, lambda a, c: (a.astype(np.int64) ** c).astype(I32),
           np.array([2, -3, 5, 0, 1, 7], I32), np.array([10, 3, 0, 4, 9, 2], I32)),
    binary("and_s32", xla.And, np.bitwise_and, INTS, SHIFTS),
    binary("or_s32", xla.Or, np.bitwise_or, INTS, SHIFTS),
    binary("xor_s32", xla.Xor, np.bitwise_xor, INTS, SHIFTS),
    binary("and_pred", xla.And, np.logical_and, BOOLS_A, BOOLS_B),
    binary("or_pred", xla.Or, np.logical_or, BOOLS_A, BOOLS_B),
    binary("xor_pred", xla.Xor, np.logical_xor, BOOLS_A, BOOLS_B),
    binary("add_pred", xla.Add, np.logical_or, BOOLS_A, BOOLS_B),
    binary("shift_left", xla.ShiftLeft, shift("left"), INTS, SHIFTS),
    binary("shift_right_arithmetic", xla.ShiftRightArithmetic, shift("arithmetic"), INTS, SHIFTS),
    binary("shift_right_logical", xla.ShiftRightLogical, shift("logical"), INTS, SHIFTS),
    # --- comparisons (IEEE: NaN unordered, -0 == +0) and the total order forms
    binary("eq", xla.Eq, np.equal, CMP_A, CMP_B),
    binary("ne", xla.Ne, np.not_equal, CMP_A, CMP_B),
    binary("ge", xla.Ge, np.greater_equal, CMP_A, CMP_B),
    binary("gt", xla.Gt, np.greater, CMP_A, CMP_B),
    binary("le", xla.Le, np.less_equal, CMP_A, CMP_B),
    binary("lt", xla.Lt, np.less, CMP_A, CMP_B),
    binary("lt_s32", xla.Lt, np.less, INTS, DIVISORS),
    binary("compare_ge", lambda a, c: xla.Compare(a, c, "GE"), np.greater_equal, CMP_A, CMP_B),
    binary("compare_lt_total_order",
           lambda a, c: xla.Compare(a, c, "LT", compare_type="TOTALORDER"),
           lambda a, c: total_order_key(a) < total_order_key(c), CMP_A, CMP_B),
    binary("eq_total_order", xla.EqTotalOrder,
           lambda a, c: total_order_key(a) == total_order_key(c), CMP_A, CMP_B),
    binary("ne_total_order", xla.NeTotalOrder,
           lambda a, c: total_order_key(a) != total_order_key(c), CMP_A, CMP_B),
    binary("gt_total_order", xla.GtTotalOrder,
           lambda a, c: total_order_key(a) > total_order_key(c), CMP_A, CMP_B),
    binary("ge_total_order", xla.GeTotalOrder,
           lambda a, c: total_order_key(a) >= total_order_key(c), CMP_A, CMP_B),
    binary("le_total_order", xla.LeTotalOrder,
           lambda a, c: total_order_key(a) <= total_order_key(c), CMP_A, CMP_B),
    binary("lt_total_order", xla.LtTotalOrder,
           lambda a, c: total_order_key(a) < total_order_key(c), CMP_A, CMP_B),
    # --- XLA's broadcasting: broadcast_dimensions, scalars, degenerate (size-1) dimensions
    binary("add_row_broadcast_dimensions", lambda a, c: xla.Add(a, c, broadcast_dimensions=[1]),
           np.add, MAT, ROW),
    binary("sub_col_broadcast_dimensions", lambda a, c: xla.Sub(a, c, [0]),
           lambda a, c: a - c[:, None], MAT, COL),
    binary("mul_lower_rank_lhs", lambda a, c: xla.Mul(a, c, broadcast_dimensions=[0]),
           lambda a, c: a[:, None] * c, COL, MAT),
    binary("max_scalar", xla.Max, np.maximum, MAT, f32(0.25)),
    binary("div_degenerate", xla.Div, np.divide, f32(R.uniform(1, 2, (3, 1))),
           f32(R.uniform(1, 2, (1, 4)))),
    binary("lt_broadcast_dimensions", lambda a, c: xla.Lt(a, c, broadcast_dimensions=[1]),
           np.less, MAT, ROW),
    binary("pow_broadcast_dimensions", lambda a, c: xla.Pow(a, c, [0]),
           via64(lambda a, c: np.abs(a) ** c[:, None]), f32(np.abs(MAT) + 0.5), COL, rtol=4e-6),
    binary("atan2_broadcast_dimensions", lambda a, c: xla.Atan2(a, c, [1]),
           via64(np.arctan2), MAT, ROW),
    # --- Clamp (min, operand, max) with array and scalar bounds; Select
    Case("clamp_arrays", (uniform(-1, 0, 12), uniform(-3, 3, 12), uniform(0, 1, 12)),
         lambda b, lo, x, hi: xla.Clamp(lo, x, hi), lambda lo, x, hi: np.minimum(
             np.maximum(lo, x), hi)),
    Case("clamp_scalar_bounds_s32", (I32(-5), INTS, I32(300)),
         lambda b, lo, x, hi: xla.Clamp(lo, x, hi), lambda lo, x, hi: np.clip(x, lo, hi)),
    Case("select", (np.array([True, False, True, False, False, True]), uniform(-1, 1, 6),
                    uniform(-1, 1, 6)),
         lambda b, p, t, f: xla.Select(p, t, f), np.where),
    Case("select_scalar_pred", (np.array(False), INTS, DIVISORS),
         lambda b, p, t, f: xla.Select(p, t, f), lambda p, t, f: np.where(p, t, f)),
]

SUITE = Suite("elementwise", CASES)
test_elementwise = numeric_test(SUITE)


def test_binary_ops_lower_to_chlo_broadcast(ctx):
    """Element-wise binary ops with broadcast_dimensions lower to chlo.broadcast_*."""
    b = xla.XlaBuilder("lowering")
    m = xla.Parameter(b, 0, xla.Shape.array_shape(np.float32, [3, 4]), "m")
    v = xla.Parameter(b, 1, xla.Shape.array_shape("F32", [4]), "v")
    xla.Atan2(xla.Mul(xla.Add(m, v, [1]), v, [1]), v, [1])
    text = b.build().as_text()
    for op in ("chlo.broadcast_add", "chlo.broadcast_multiply", "chlo.broadcast_atan2"):
        assert op in text, text


@pytest.mark.parametrize("make", [
    lambda m, v: xla.Add(m, v),                             # rank mismatch, no dimensions
    lambda m, v: xla.Add(m, v, broadcast_dimensions=[0]),   # 4 != 3
    lambda m, v: xla.Add(m, v, broadcast_dimensions=[5]),   # out of range
], ids=["rank_mismatch", "size_mismatch", "dimension_out_of_range"])
@pytest.mark.every_case
def test_bad_broadcast_raises_shlo_error(make):
    error = build_error([(F32, [3, 4]), (F32, [4])], lambda b, m, v: make(m, v))
    assert "add" in str(error).lower()
