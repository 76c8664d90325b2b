"""f64 math from arithmetic: exp, expm1, log, log1p, pow, tanh, cbrt, logistic, fmod.

Every kernel takes and returns f64 `Num`s and emits only StableHLO arithmetic (add, multiply,
divide, sqrt, compare, select, round, bitcast and integer shifts), which every backend
compiles in f64: IREE's llvm-cpu links no libm and SPIR-V has no 64-bit exp/log/sin.

The algorithms are fdlibm's (Sun's freely distributable libm, the base of most C libraries),
which are within 1 ULP: exp (e_exp.c), expm1 (s_expm1.c), log/log1p (e_log.c, s_log1p.c,
sharing one kernel), tanh (s_tanh.c). pow evaluates y * log|x| in double-double (Dekker's
exact products) before exp, so large results keep full precision. cbrt is one Newton step on
exp(log|x| / 3); fmod reduces the quotient 25 bits at a time so every step is exact.
"""
from __future__ import annotations

import math

from shlo.dialect import stablehlo
from ..lib.expr import (Num, any_over, floor, horner, is_finite, is_nan, round_even, select,
    shift_left, shift_right_logical)

INF, NAN = math.inf, math.nan
LN2_HI, LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10   # ln2_hi: 32 bits
INV_LN2 = 1.44269504088896338700e+00
EXP_OVERFLOW, EXP_UNDERFLOW = 7.09782712893383973096e+02, -7.45133219101941108420e+02
EXP_P = [4.13813679705723846039e-08, -1.65339022054652515390e-06, 6.61375632143793436117e-05,
         -2.77777777770155933842e-03, 1.66666666666666019037e-01]
EXPM1_Q = [-2.01099218183624371326e-07, 4.00821782732936239552e-06, -7.93650757867487942473e-05,
           1.58730158725481460165e-03, -3.33333333333331316428e-02, 1.0]
# log(1 + f) = 2s + s R(s^2), s = f / (2 + f): R's even and odd terms in w = s^4
LOG_EVEN = [1.531383769920937332e-01, 2.222219843214978396e-01, 3.999999999940941908e-01]
LOG_ODD = [1.479819860511658591e-01, 1.818357216161805012e-01, 2.857142874366239149e-01,
           6.666666666666735130e-01]
SQRT_HALF = 0.70710678118654752440
MANTISSA_MASK, ONE_BITS = (1 << 52) - 1, 0x3FF0000000000000


# --- bits ----------------------------------------------------------------------------------------

def pow2(k: Num) -> Num:
    """2^k as f64 for an i64 k in [-1022, 1023]."""
    return shift_left(k + 1023, 52).bitcast("f64")


def scale(y: Num, k: Num) -> Num:
    """y * 2^k (ldexp) for i64 k in [-2100, 2100], in two exact halves and one rounding."""
    half = Num(stablehlo.shift_right_arithmetic(k.value, k.like(1).value))
    half = select(half > 1023, half.like(1023), select(half < -1022, -1022, half))
    rest = k - half
    rest = select(rest > 1023, rest.like(1023), select(rest < -1022, -1022, rest))
    return y * pow2(half) * pow2(rest)


def frexp(x: Num) -> tuple[Num, Num]:
    """(m, e) with x = m 2^e, m in [sqrt(1/2), sqrt(2)), e an i64, for finite x > 0
    (subnormals included)."""
    subnormal = x < 2.2250738585072014e-308
    x = select(subnormal, x * 2.0 ** 54, x)
    bits = x.bitcast("i64")
    e = (shift_right_logical(bits, 52) & 0x7FF) - select(subnormal, bits.like(1023 + 54), 1023)
    m = ((bits & MANTISSA_MASK) | ONE_BITS).bitcast("f64")
    big = m > 1.0 / SQRT_HALF
    return select(big, m * 0.5, m), select(big, e + 1, e)


# --- exp, expm1 ----------------------------------------------------------------------------------

def _reduce_ln2(x: Num, x_lo: Num | None = None) -> tuple[Num, Num, Num, Num]:
    """x + x_lo = k ln2 + (hi - lo), |hi - lo| <= ln2/2: (k as f64, k as i64, hi, lo)."""
    k = round_even(x * INV_LN2)
    k = select(is_finite(k), k, 0.0)
    lo = k * LN2_LO if x_lo is None else k * LN2_LO - x_lo
    return k, k.to("i64"), x - k * LN2_HI, lo


def exp(x: Num, x_lo: Num | None = None) -> Num:
    """e^(x + x_lo); the low part (|x_lo| << ulp(x)) lets pow pass a double-double."""
    kf, k, hi, lo = _reduce_ln2(x, x_lo)
    r = hi - lo
    r2 = r * r
    c = r - r2 * horner(r2, EXP_P)
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    out = scale(y, k)
    out = select(x > EXP_OVERFLOW, INF, select(x < EXP_UNDERFLOW, 0.0, out))
    return select(is_nan(x), x, out)


def expm1(x: Num) -> Num:
    small = abs(x) <= 0.5 * math.log(2.0)
    kf, k, hi, lo = _reduce_ln2(x)
    kf, k = select(small, 0.0, kf), select(small, k.like(0), k)
    hi, lo = select(small, x, hi), select(small, 0.0, lo)
    r = hi - lo
    c = (hi - r) - lo
    hfx = r * 0.5
    hxs = r * hfx
    r1 = 1.0 + hxs * horner(hxs, EXPM1_Q[:-1])
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - r * t))
    at_zero = r - (r * e - hxs)
    e = (r * (e - c) - c) - hxs
    minus_one = (r - e) * 0.5 - 0.5
    plus_one = select(r < -0.25, -2.0 * (e - (r + 0.5)), 1.0 + 2.0 * (r - e))
    far = scale(1.0 - (e - r), k) - 1.0
    neg_k = select(k < 60, k.like(0) - k, -60)
    mid_small = scale(1.0 - pow2(neg_k) - (e - r), k)                   # 2 <= k < 20
    mid_large = scale((r - (e + pow2(neg_k))) + 1.0, k)                  # 20 <= k <= 56
    out = select(k < 20, mid_small, mid_large)
    out = select((k <= -2) | (k > 56), far, out)
    out = select(k.eq(1), plus_one, select(k.eq(-1), minus_one, out))
    out = select(k.eq(0), at_zero, out)
    out = select(abs(x) < 2.0 ** -54, x, out)
    out = select(x > EXP_OVERFLOW, INF, select(x < -56 * math.log(2.0), -1.0, out))
    return select(is_nan(x), x, out)


# --- log, log1p ----------------------------------------------------------------------------------

def _log_r(s: Num) -> Num:
    z = s * s
    w = z * z
    return z * horner(w, LOG_ODD) + w * horner(w, LOG_EVEN)


def _log_kernel(f: Num, k: Num) -> Num:
    """log(2^k (1 + f)) for f in [sqrt(1/2) - 1, sqrt(2) - 1] and k an f64 integer."""
    s = f / (2.0 + f)
    hfsq = 0.5 * f * f
    return k * LN2_HI - ((hfsq - (s * (hfsq + _log_r(s)) + k * LN2_LO)) - f)


def _log_special(x: Num, out: Num) -> Num:
    out = select(x.eq(0.0), -INF, select(x.eq(INF), INF, out))
    return select((x < 0.0) | is_nan(x), NAN, out)


def log(x: Num) -> Num:
    m, e = frexp(select(x > 0.0, x, x.like(1.0)))
    return _log_special(x, _log_kernel(m - 1.0, e.to("f64")))


def log1p(x: Num) -> Num:
    """log(1 + x): the log kernel on x itself while 1 + x is in [sqrt(1/2), sqrt(2)), else on
    u = 1 + x with the rounding error of u corrected to first order."""
    u = 1.0 + x
    m, e = frexp(select(u > 0.0, u, u.like(1.0)))
    correction = (x - (u - 1.0)) / u
    wide = _log_kernel(m - 1.0, e.to("f64")) + correction
    near = (x > SQRT_HALF - 1.0) & (x < 1.0 / SQRT_HALF - 1.0)
    out = select(near, _log_kernel(x, x.like(0.0)), wide)
    return _log_special(u, select(abs(x) < 2.0 ** -54, x, out))


# --- pow -----------------------------------------------------------------------------------------

def _split(a: Num) -> tuple[Num, Num]:
    """a = hi + lo with 26-bit halves (hi rounded to nearest at bit 27 on the integer bits,
    so no float expression a compiler could simplify away)."""
    bits = a.bitcast("i64")
    hi = ((bits + (1 << 26)) & ~((1 << 27) - 1)).bitcast("f64")
    return hi, a - hi


def two_prod(a: Num, b: Num) -> tuple[Num, Num]:
    """(p, e) with p = fl(a b) and p + e = a b exactly (Dekker), for |a|, |b| < 2^1000."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _truncate(x: Num, unit: float) -> Num:
    """x rounded down to a multiple of `unit` (a power of two), exactly."""
    return floor(x * (1.0 / unit)) * unit


def _high_bits(x: Num, dropped: int) -> Num:
    """x with its lowest `dropped` mantissa bits cleared (exactly, on the integer bits)."""
    return (x.bitcast("i64") & ~((1 << dropped) - 1)).bitcast("f64")


def log_double(x: Num) -> tuple[Num, Num]:
    """log(x) = hi + lo for finite x > 0, with |lo| <= 2^-26 |hi + lo| and hi + lo within
    about 2^-60 relative of log(x) (the accuracy of fdlibm's polynomial).

    Written without error-free sums like (a + b) - a, which a GPU compiler may fold to b
    (Mesa's NIR does on Vulkan): the exact parts are cut on fixed bit positions instead,
    so 2 + f_hi and k ln2_hi + v_hi are exact by construction."""
    m, e = frexp(x)
    k = e.to("f64")
    f = m - 1.0
    f_hi = _truncate(f, 2.0 ** -51)
    d = 2.0 + f_hi                            # exact
    d_lo = f - f_hi                           # exact: 2 + f = d + d_lo
    s = f / d
    p, pe = two_prod(s, d)
    s_lo = (((f - p) - pe) - s * d_lo) / d    # s + s_lo = f / (2 + f)
    tail = 2.0 * s_lo + s * _log_r(s)         # log(m) = 2s + tail
    v = 2.0 * s + tail
    # k ln2_hi is a multiple of 2^-32 below 2^11: adding v cut at 2^-42 stays exact;
    # with k = 0 v keeps its 27 leading bits instead
    v_hi = select(k.eq(0.0), _high_bits(v, 26), _truncate(v, 2.0 ** -42))
    hi = k * LN2_HI + v_hi
    lo = ((2.0 * s - v_hi) + tail) + k * LN2_LO
    return hi, lo


def _is_integer(y: Num) -> Num:
    return floor(y).eq(y) & is_finite(y)


def _is_odd(y: Num) -> Num:
    half = y * 0.5
    return _is_integer(y) & floor(half).ne(half)


def power(x: Num, y: Num) -> Num:
    """x^y with C99's special cases (pow(x, 0) = pow(1, y) = 1, NaN for a negative base and a
    non-integer exponent, signed zeros and infinities for odd integer exponents)."""
    ax = abs(x)
    finite_pos = (ax > 0.0) & is_finite(ax)
    hi, lo = log_double(select(finite_pos, ax, ax.like(1.0)))
    p, pe = two_prod(y, hi)                   # y log|x| = p + pe, |pe| <= 2^-25 |p|
    pe = pe + y * lo
    pe = select(is_finite(pe) & (abs(p) < 800.0), pe, 0.0)
    magnitude = exp(p, pe)
    # |x| = 0 or inf: 0^y and inf^(-y) are 0 for y > 0, inf for y < 0
    zero_or_inf = select((ax.eq(0.0) & (y < 0.0)) | (ax.eq(INF) & (y > 0.0)), ax.like(INF), 0.0)
    magnitude = select(finite_pos, magnitude, zero_or_inf)
    # infinite exponents
    magnitude = select(y.eq(INF), select(ax < 1.0, ax.like(0.0), INF), magnitude)
    magnitude = select(y.eq(-INF), select(ax < 1.0, ax.like(INF), 0.0), magnitude)
    negative = (x < 0.0) | (x.eq(0.0) & (1.0 / x < 0.0))
    out = select(negative & _is_odd(y), -magnitude, magnitude)
    out = select((x < 0.0) & is_finite(x) & ~_is_integer(y) & is_finite(y), NAN, out)
    out = select(is_nan(x) | is_nan(y), NAN, out)
    return select(y.eq(0.0) | x.eq(1.0) | (x.eq(-1.0) & ~is_finite(y) & ~is_nan(y)), 1.0, out)


# --- tanh, cbrt, logistic --------------------------------------------------------------------------

def tanh(x: Num) -> Num:
    a = abs(x)
    t_small = expm1(-2.0 * a)
    t_large = expm1(2.0 * a)
    z = select(a < 1.0, -t_small / (t_small + 2.0), 1.0 - 2.0 / (t_large + 2.0))
    z = select(a >= 22.0, a.like(1.0), z)
    z = select(x < 0.0, -z, z)
    return select((a < 2.0 ** -55) | is_nan(x), x, z)


def cbrt(x: Num) -> Num:
    a = abs(x)
    y = exp(log(select((a > 0.0) & is_finite(a), a, a.like(1.0))) * (1.0 / 3.0))
    y = y - (y - a / (y * y)) * (1.0 / 3.0)
    y = select(x < 0.0, -y, y)
    return select(x.eq(0.0) | ~is_finite(x), x, y)


def logistic(x: Num) -> Num:
    return 1.0 / (1.0 + exp(-x))


# --- fmod ----------------------------------------------------------------------------------------

def _exponent(a: Num) -> Num:
    """The unbiased exponent of a finite a > 0 as i64 (subnormals included)."""
    return frexp(a)[1]


def _reduce_loop(r: Num, ay: Num, j_min: Num, steps: int | None = None) -> Num:
    """r mod (ay 2^j_min), for 0 <= r and ay > 0 finite: subtract q ay 2^j with q < 2^25
    until r < ay 2^j_min (in a while loop, or in `steps` unrolled steps when the caller
    knows that many reach it). With s = ay 2^j split into 26-bit halves, q s_hi and q s_lo are
    exact, r - q s_hi is exact (Sterbenz) and so is the last difference (a multiple of
    ulp(s) below s): exact whether or not the compiler fuses them into FMAs, while
    ay 2^j_min >= 2^-900 (the low half stays normal)."""
    ey = _exponent(ay)
    limit = scale(ay, j_min)

    def cond(value):
        more = Num(value) >= limit
        return any_over(more, range(more.type.rank)).value

    def body(value):
        value = Num(value)
        j = _exponent(select(value > 0.0, value, value.like(1.0))) - ey - 24
        j = select(j > j_min, j, j_min)
        # near the top of the range q s_hi could overflow: work at half scale
        half = select(value > 2.0 ** 1000, value.like(0.5), 1.0)
        step = scale(ay, j) * half
        v = value * half
        q = floor(v / step)
        s_hi, s_lo = _split(step)
        nxt = (v - q * s_hi) - q * s_lo
        nxt = select(nxt < 0.0, nxt + step, select(nxt >= step, nxt - step, nxt)) / half
        return [select(value >= limit, nxt, value).value]

    if steps is not None:
        for _ in range(steps):
            r = Num(body(r.value)[0])
        return r
    return Num(stablehlo.while_([r.value], cond=cond, body=body))


def fmod_narrow(x: Num, y: Num) -> Num:
    """fmod for f64 values that are f32 (or narrower) values: their exponents differ by at
    most 277, so 13 unrolled steps of 23+ quotient bits finish (12 do, measured at the
    extremes), without a while loop."""
    ax, ay = abs(x), abs(y)
    regular = is_finite(ax) & is_finite(ay) & (ay > 0.0)
    ay = select(regular, ay, ay.like(1.0))
    r = _reduce_loop(select(regular, ax, ax.like(0.0)), ay, _exponent(ay).like(0), steps=13)
    return _fmod_special(x, y, r)


def _fmod_special(x: Num, y: Num, r: Num) -> Num:
    """fmod from |x| mod |y| = r: x's sign, and C's special cases."""
    out = select(x < 0.0, -r, r)
    out = select(x.eq(0.0) | (~is_finite(y) & is_finite(x)), x, out)
    return select(~is_finite(x) | is_nan(y) | abs(y).eq(0.0), NAN, out)


def fmod(x: Num, y: Num) -> Num:
    """x - y trunc(x / y) exactly (C's fmod, stablehlo.remainder on floats). |x| is reduced
    modulo |y| 2^j, j >= 0 as small as keeps |y| 2^j >= 2^-900, then, scaled by 2^200, modulo
    |y| itself (|y| near the top of the range: 2^200 lower); every step is exact (see
    `_reduce_loop`), 25 quotient bits at a time. Two while loops: IREE's Vulkan runtime failed
    on a function with two fmods of three loops each."""
    ax, ay = abs(x), abs(y)
    regular = is_finite(ax) & is_finite(ay) & (ay > 0.0)
    ay = select(regular, ay, ay.like(1.0))
    r = select(regular, ax, ax.like(0.0))
    ey = _exponent(ay)
    tiny, huge = ey < -900, ey > 900
    # one loop for every element: |y| near the top of the range works 2^200 lower (Dekker's
    # split would overflow), tiny |y| stops at |y| 2^j >= 2^-900 for the second loop
    scale_down = select(huge, ay.like(2.0 ** -200), 1.0)
    first = _reduce_loop(r * scale_down, ay * scale_down,
                         select(tiny, -900 - ey, ey.like(0))) / scale_down
    r = select(huge & (r < ay), r, first)         # r < |y|: r 2^-200 could lose its low bits
    # tiny |y|: the rest modulo |y| itself, 2^200 higher (other elements: nothing left to do)
    lift = ay.like(2.0 ** 200)
    low = _reduce_loop(select(tiny, r, 0.0) * lift, ay * lift, ey.like(0)) * (2.0 ** -200)
    return _fmod_special(x, y, select(tiny, low, r))
