"""Complex functions from real ones, for complex<f32> (shlo-accurate-math) and complex<f64>
(shlo-expand-f64-math): each kernel takes and returns complex `Num`s, computes in the
component type and builds only on real ops that those passes make accurate (sin/cos by
`chlo_sincos.sin_cos`, atan2, tan) or that IREE computes within an ULP or two (exp, log,
log1p, expm1, sqrt). Formulas avoid the usual overflow and cancellation traps; each
docstring says how.
"""
from __future__ import annotations

import math

from shlo.dialect import stablehlo
from ..chlo import trig as chlo_trig
from ..chlo.trig import copysign
from ..lib.expr import (Num, complex_, float_info, hypot, imag, is_finite, is_nan, maximum, minimum,
    real, select, sqrt)
from ..chlo.sincos import sin_cos


def _log1p(x: Num) -> Num:
    return Num(stablehlo.log_plus_one(x.value))


def _exp(x: Num) -> Num:
    return Num(stablehlo.exponential(x.value))


def _expm1(x: Num) -> Num:
    return Num(stablehlo.exponential_minus_one(x.value))


def _log(x: Num) -> Num:
    return Num(stablehlo.log(x.value))


def _atan2(y: Num, x: Num) -> Num:
    return Num(stablehlo.atan2(y.value, x.value))


def _cis(b: Num) -> tuple[Num, Num]:
    s, c = sin_cos(b)
    return c, s


# --- complex kernels (z = a + ib) ----------------------------------------------------------------

def _exp_split(a: Num) -> float:
    """Past this, e^a is computed as (e^(a/2))^2: a little below where e^a overflows."""
    return math.log(float_info(a.element).max) - 9.0


def c_exp(z: Num) -> Num:
    """e^a (cos b + i sin b); e^a as (e^(a/2))^2 near and past where e^a alone overflows; a
    real argument keeps a zero imaginary part (inf * 0 would be NaN); C99 Annex G's values
    for a = +-inf and b inf or NaN (+inf + iNaN, and +-0 +- i0)."""
    a, b = real(z), imag(z)
    c, s = _cis(b)
    big = a > _exp_split(a)
    e = _exp(select(big, a * 0.5, a))
    re = select(big, (e * c) * e, e * c)
    im = select(big, (e * s) * e, e * s)
    bad_b = ~is_finite(b)
    re = select(bad_b & a.eq(float("inf")), a, select(bad_b & a.eq(-float("inf")), 0.0, re))
    im = select(bad_b & a.eq(-float("inf")), b.like(0.0), im)
    return complex_(re, select(b.eq(0.0), b, im))


def c_expm1(z: Num) -> Num:
    """(expm1(a) cos b - 2 sin^2(b/2)) + i Im(e^z): no cancellation near 0; where e^a
    overflows (or a is not finite), Re(e^z) - 1 from `c_exp`, which stays finite while
    e^a cos b does."""
    a, b = real(z), imag(z)
    c, _ = _cis(b)
    half_sin, _ = sin_cos(b * 0.5)
    w = c_exp(z)
    exp_side = (a > _exp_split(a)) | ~is_finite(a)
    re = select(exp_side, real(w) - 1.0, _expm1(a) * c - 2.0 * half_sin * half_sin)
    return complex_(re, imag(w))


def _log_abs(a: Num, b: Num) -> Num:
    """log|a + ib| without overflow, and without cancellation near |z| = 1; +inf where a
    part is infinite (the other may be NaN)."""
    x, y = abs(a), abs(b)
    mx, mn = maximum(x, y), minimum(x, y)
    near_one = (mx > 0.5) & (mx < 2.0)
    ratio = select(mx.eq(0.0), mx, mn / mx)
    far = _log(mx) + 0.5 * _log1p(ratio * ratio)
    near = 0.5 * _log1p((mx - 1.0) * (mx + 1.0) + mn * mn)
    return select(x.eq(float("inf")) | y.eq(float("inf")), x.like(float("inf")),
                  select(near_one, near, far))


def c_log(z: Num) -> Num:
    a, b = real(z), imag(z)
    return complex_(_log_abs(a, b), _atan2(b, a))


def c_log1p(z: Num) -> Num:
    """log(1 + z): the real part as 0.5 log1p(2a + a^2 + b^2) for |a| < 1/2 and |b| < 2,
    where 1 + a would round away a's low bits."""
    a, b = real(z), imag(z)
    u = a + 1.0
    small = (abs(a) < 0.5) & (abs(b) < 2.0)
    re = select(small, 0.5 * _log1p(a * (a + 2.0) + b * b), _log_abs(u, b))
    return complex_(re, _atan2(b, u))


def c_sin(z: Num) -> Num:
    """sin(z) = -i sinh(iz)."""
    return chlo_trig.complex_sin(z)


def c_cos(z: Num) -> Num:
    """cos(z) = cosh(iz)."""
    return chlo_trig.complex_cosh(complex_(-imag(z), real(z)))


def c_tanh(z: Num) -> Num:
    return chlo_trig.complex_tanh(z)


def c_logistic(z: Num) -> Num:
    return Num(stablehlo.divide(z.like(1.0).value, (1.0 + c_exp(-z)).value))


def _sqrt_scaled(a: Num, b: Num):
    """For z = a + ib: (t, u, h, k) with t = sqrt((|a| + |z|) / 2) and u = |b| / (2t) both
    multiplied by k, and h = |z| by k^2: z is scaled by k^2 = 1/4 when a part is above a
    quarter of the largest value, and by 2^2p (p the precision) when both are tiny, so that
    neither |a| + |z| overflows nor its half underflows."""
    info = float_info(a.element)
    ax, ay = abs(a), abs(b)
    mx = maximum(ax, ay)
    up = 2.0 ** (2 * (info.mantissa_bits + 1))
    small, big = mx < info.tiny * up, mx > info.max / 4.0
    k2 = select(big, a.like(0.25), select(small, a.like(up), 1.0))
    sa, sb = ax * k2, ay * k2
    h = hypot(sa, sb)
    t = sqrt((sa + h) * 0.5)
    u = select(t.eq(0.0), t, sb / (2.0 * t))
    k = select(big, a.like(0.5), select(small, a.like(up ** 0.5), 1.0))
    return t, u, h, k


def c_sqrt(z: Num) -> Num:
    """t + i b/(2t) for a >= 0, |b|/(2t) + i sign(b) t below, t = sqrt((|a| + |z|) / 2)
    (`_sqrt_scaled`); C99 Annex G's values at infinities and NaNs."""
    a, b = real(z), imag(z)
    t, u, _, k = _sqrt_scaled(a, b)
    t, u = t / k, u / k
    re = select(a >= 0.0, t, u)
    im = select(a >= 0.0, select(t.eq(0.0), b, copysign(u, b)), copysign(t, b))
    inf, nan = float("inf"), float("nan")
    re = select(is_nan(a) | is_nan(b), a.like(nan), re)
    im = select(is_nan(a) | is_nan(b), a.like(nan), im)
    re = select(a.eq(-inf), select(is_nan(b), b, a.like(0.0)), select(a.eq(inf), a, re))
    im = select(a.eq(-inf), copysign(a.like(inf), b),
                select(a.eq(inf), select(is_nan(b), b, copysign(a.like(0.0), b)), im))
    return complex_(select(abs(b).eq(inf), abs(b), re), select(abs(b).eq(inf), b, im))


def c_rsqrt(z: Num) -> Num:
    """conj(sqrt z) / |z| from `_sqrt_scaled`'s parts (t/|z| and u/|z|, each rounded twice);
    0 (signed as conj(sqrt z)) where sqrt z is infinite, inf + iNaN at 0 (as 1/(0 + 0i))."""
    a, b = real(z), imag(z)
    t, _, h, k = _sqrt_scaled(a, b)
    # u / h as (|b| / h) / (2t): |b| / (2t) can underflow where the result does not
    u = ((abs(b) * (k * k)) / h) / (2.0 * t) * k
    t = (t / h) * k
    re = select(a >= 0.0, t, u)
    im = -select(a >= 0.0, copysign(u, b), copysign(t, b))
    nan = is_nan(a) | is_nan(b)
    re = select(nan, a + b, select(h.eq(0.0), float("inf"), re))
    im = select(nan, a + b, select(h.eq(0.0), float("nan"), im))
    w = c_sqrt(z)
    big = abs(real(w)).eq(float("inf")) | abs(imag(w)).eq(float("inf"))
    return complex_(select(big, copysign(a.like(0.0), real(w)), re),
                    select(big, copysign(a.like(0.0), -imag(w)), im))


def c_abs(z: Num) -> Num:
    """|a + ib| without overflow or underflow (chlo_expr.hypot); +inf where a part is
    infinite, even when the other is NaN."""
    a, b = abs(real(z)), abs(imag(z))
    return select(a.eq(float("inf")) | b.eq(float("inf")), a.like(float("inf")), hypot(a, b))


def c_sign(z: Num) -> Num:
    """z / |z| with both parts scaled by the larger first (|z| would overflow or underflow);
    0 for 0; numpy's values beside infinities: one infinite part counts as +-1 and the other
    (finite or NaN) as 0, two infinite parts give NaN."""
    a, b = real(z), imag(z)
    mx = maximum(abs(a), abs(b))
    inf_a, inf_b = abs(a).eq(float("inf")), abs(b).eq(float("inf"))
    one_inf = inf_a ^ inf_b
    sa = select(one_inf, select(inf_a, copysign(a.like(1.0), a), 0.0), a / mx)
    sb = select(one_inf, select(inf_b, copysign(b.like(1.0), b), 0.0), b / mx)
    size = hypot(abs(sa), abs(sb))
    zero = mx.eq(0.0)
    return complex_(select(zero, a, sa / size), select(zero, b, sb / size))


def c_divide(x: Num, y: Num) -> Num:
    """x / y by Smith's algorithm: over the divisor's larger part, so that |c|^2 + |d|^2 is
    never formed (it overflows past 1.8e19 in f32: (1e30 + 0i) / (1e30 + 0i) was NaN, shlo-fuzz
    seed 49 program 240); C99 Annex G's values where that gives NaN + iNaN: a number over 0 is
    an infinity, an infinity over a finite divisor an infinity, a finite number over an
    infinite divisor 0."""
    a, b, c, d = real(x), imag(x), real(y), imag(y)
    inf = float("inf")
    wide = abs(c) >= abs(d)
    r = select(wide, d / c, c / d)
    t = select(wide, c + d * r, c * r + d)
    re = select(wide, a + b * r, a * r + b) / t
    im = select(wide, b - a * r, b * r - a) / t
    nan = is_nan(re) & is_nan(im)
    by_zero = c.eq(0.0) & d.eq(0.0) & ~(is_nan(a) & is_nan(b))
    big = copysign(c.like(inf), c)
    a_inf, b_inf, c_inf, d_inf = (abs(v).eq(inf) for v in (a, b, c, d))
    x_inf = (a_inf | b_inf) & is_finite(c) & is_finite(d)
    a1, b1 = (copysign(select(f, v.like(1.0), 0.0), v) for f, v in ((a_inf, a), (b_inf, b)))
    y_inf = (c_inf | d_inf) & is_finite(a) & is_finite(b)
    c1, d1 = (copysign(select(f, v.like(1.0), 0.0), v) for f, v in ((c_inf, c), (d_inf, d)))
    re = select(nan & by_zero, big * a, select(nan & x_inf, (a1 * c + b1 * d) * inf,
                                              select(nan & y_inf, (a * c1 + b * d1) * 0.0, re)))
    im = select(nan & by_zero, big * b, select(nan & x_inf, (b1 * c - a1 * d) * inf,
                                              select(nan & y_inf, (b * c1 - a * d1) * 0.0, im)))
    return complex_(re, im)


def c_power(x: Num, y: Num) -> Num:
    """exp(y log x); 0^y is 0 for re(y) > 0, and x^0 is 1."""
    out = c_exp(Num(stablehlo.multiply(y.value, c_log(x).value)))
    x_zero = real(x).eq(0.0) & imag(x).eq(0.0)
    y_zero = real(y).eq(0.0) & imag(y).eq(0.0)
    out = select(x_zero & (real(y) > 0.0), x.like(0.0), out)
    return select(y_zero, x.like(1.0), out)


def c_atan2(y: Num, x: Num) -> Num:
    """The spec's complex atan2: -i log((x + iy) / sqrt(x^2 + y^2))."""
    def mul(a, b):
        return Num(stablehlo.multiply(a.value, b.value))
    i = complex_(real(x).like(0.0), 1.0)
    num = Num(stablehlo.add(x.value, mul(i, y).value))
    den = c_sqrt(Num(stablehlo.add(mul(x, x).value, mul(y, y).value)))
    return mul(-i, c_log(Num(stablehlo.divide(num.value, den.value))))


def c_cbrt(z: Num) -> Num:
    """The principal cube root: cbrt(|z|) (cos(t/3) + i sin(t/3)), t = arg z."""
    a, b = real(z), imag(z)
    size = Num(stablehlo.cbrt(hypot(abs(a), abs(b)).value))
    s, c = sin_cos(_atan2(b, a) * (1.0 / 3.0))
    return complex_(size * c, size * s)
