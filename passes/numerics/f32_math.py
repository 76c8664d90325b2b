"""f32 exp, expm1, log1p, logistic, tanh and cbrt from arithmetic, for targets whose own are
wrong.

Mesa's SPIR-V compiler (Vulkan on lavapipe) computes exp through exp2(x log2 e), inaccurate
for large |x|, log1p as log(1 + x), which is all rounding error for tiny |x|, and tanh
saturating at 1 - 2^-22 instead of 1 (docs/iree_gaps.md#passesnumericsf32_math). IREE's
CPU versions are accurate, so these kernels run only where a target asks for them
(`shlo-accurate-math{exp-log=true}`, set by the Vulkan target).

exp: x = k ln2 + r by Cody-Waite (ln2 in two parts, the first of 16 bits so k * ln2_hi is
exact), e^r by its Taylor series on |r| <= ln2/2, 2^k applied in two halves through exponent
bits. expm1: its Taylor series for |x| < 1 (no cancellation), exp(x) - 1 beyond. log1p:
2 atanh(s), s = x / (2 + x), by the series of atanh for |x| < 0.4, log(1 + x) beyond.
tanh: its Taylor series below |x| = 0.55, 1 - 2 / (e^2|x| + 1) beyond, exactly +-1 past
13 ln2. None of them relies on an error-free transformation that Mesa's optimiser could fold.
exp also serves f32 sinh and cosh on every target (chlo_trig; IREE's CPU exp loses accuracy
near overflow), with a power-of-two scale that keeps e^x / 2 finite past e^x's overflow.
cbrt (IREE's own f32 cbrt is inaccurate, NaN for inf) runs on every target below f64.
"""
from __future__ import annotations

import math

from shlo.dialect import stablehlo
from ..lib.expr import (Num, exp as _target_exp, horner, is_finite, is_nan, log, round_even, select,
    shift_left)

LN2_HI, LN2_LO = 0.693145751953125, 1.428606765330187045e-06     # ln2_hi: 16 significant bits
EXP_MAX, EXP_MIN = 88.72283935546875, -103.97208404541016         # e^x overflows / is below 2^-150
EXP_TAYLOR = [1 / math.factorial(n) for n in range(9, -1, -1)]    # e^r, |r| <= 0.35: r^10/10!
EXPM1_TAYLOR = [1 / math.factorial(n) for n in range(13, 0, -1)]  # expm1(x)/x for |x| < 1
ATANH_SERIES = [1 / (2 * k + 1) for k in range(9, -1, -1)]        # atanh(s)/s in s^2, |s| < 1/4


def _pow2(k: Num) -> Num:
    """2^k as f32 for an i32 k in [-126, 127]."""
    return shift_left(k + 127, 23).bitcast("f32")


def exp(x: Num, halvings: int = 0) -> Num:
    """e^x / 2^halvings (halvings >= 0: finite a little past where e^x overflows)."""
    k = round_even(x * (1 / math.log(2)))
    r = (x - k * LN2_HI) - k * LN2_LO
    p = horner(r, EXP_TAYLOR)
    ki = select(is_nan(k), k.like(0.0), k).to("i32")
    ki = select(ki > 128 + halvings, ki.like(128 + halvings), select(ki < -151, -151, ki))
    ki = ki - halvings
    half = Num(stablehlo.shift_right_arithmetic(ki.value, ki.like(1).value))
    out = (p * _pow2(half)) * _pow2(ki - half)
    top = EXP_MAX + halvings * math.log(2)
    out = select(x > top, x.like(math.inf), select(x < EXP_MIN, x.like(0.0), out))
    return select(is_nan(x), x, out)


def expm1(x: Num) -> Num:
    small = abs(x) < 1.0
    series = x * horner(x, EXPM1_TAYLOR)
    return select(small, series, exp(x) - 1.0)


def log1p(x: Num) -> Num:
    small = abs(x) < 0.4
    s = x / (x + 2.0)
    series = 2.0 * s * horner(s * s, ATANH_SERIES)
    series = select(abs(x) < 2.0 ** -26, x, series)     # x itself: s would be subnormal
    return select(small, series, log(x + 1.0))


def logistic(x: Num) -> Num:
    return 1.0 / (exp(-x) + 1.0)


TANH_ONE = 9.1                 # past 13 ln2 = 9.0109, 1 - tanh(x) < 2^-25: tanh rounds to 1
TANH_SERIES_END = 0.55         # tanh >= 1/2 from here: 1 - 2 / (e^2|x| + 1) cancels nothing
# tanh(x) = x + x^3 (c1 + c2 x^2 + ...): its Taylor coefficients c1..c9 (mpmath), highest first;
# the terms left out are below 2^-30 of tanh(x) for |x| < 0.55
TANH_TAYLOR = [-0.00023912911424355248, 0.000590027440945586, -0.0014558343870513183,
               0.003592128036572481, -0.008863235529902197, 0.021869488536155203,
               -0.05396825396825397, 0.13333333333333333, -0.3333333333333333]


def tanh(x: Num) -> Num:
    """tanh by its Taylor series below |x| = 0.55, 1 - 2 / (e^2|x| + 1) with this module's exp
    up to where tanh rounds to 1, exactly +-1 beyond; +-0 and NaN are x itself."""
    a = abs(x)
    a2 = a * a
    small = a + a * (a2 * horner(a2, TANH_TAYLOR))
    large = 1.0 - 2.0 / (exp(2.0 * a) + 1.0)
    z = select(a < TANH_SERIES_END, small, select(a < TANH_ONE, large, a.like(1.0)))
    z = select(x < 0.0, -z, z)
    return select(x.eq(0.0) | is_nan(x), x, z)


def cbrt(x: Num) -> Num:
    """The real cube root: e^(log|x| / 3) from the target's exp and log, then one Newton step
    y - (y - |x| / y^2) / 3, which leaves the square of their relative error (IREE's own f32
    cbrt is inaccurate and gives NaN for inf). x itself for 0, inf and NaN."""
    a = abs(x)
    y = _target_exp(log(select((a > 0.0) & is_finite(a), a, a.like(1.0))) * (1.0 / 3.0))
    y = y - (y - a / (y * y)) * (1.0 / 3.0)
    y = select(x < 0.0, -y, y)
    return select(x.eq(0.0) | ~is_finite(x), x, y)
