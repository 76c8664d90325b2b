"""Complex functions from real ones, for complex<f32> (shlo-accurate-math) and complex<f64>
(shlo-expand-f64-math): each kernel takes and returns complex `Num`s, computes in the
component type and builds only on real ops that those passes make accurate (sin/cos by
`chlo_sincos.sin_cos`, atan2, tan) or that IREE computes within an ULP or two (exp, log,
log1p, expm1, sqrt). Formulas avoid the usual overflow and cancellation traps; each
docstring says how.
"""
from __future__ import annotations

import math

from ..dialect import stablehlo
from . import chlo_trig
from .chlo_expr import (Num, complex_, float_info, hypot, imag, is_nan, maximum,
                        minimum, real, select, sqrt)
from .chlo_sincos import sin_cos


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
    real argument keeps a zero imaginary part (inf * 0 would be NaN)."""
    a, b = real(z), imag(z)
    c, s = _cis(b)
    big = a > _exp_split(a)
    e = _exp(select(big, a * 0.5, a))
    re = select(big, (e * c) * e, e * c)
    im = select(big, (e * s) * e, e * s)
    return complex_(re, select(b.eq(0.0), b, im))


def c_expm1(z: Num) -> Num:
    """(expm1(a) cos b - 2 sin^2(b/2)) + i Im(e^z): no cancellation near 0; where e^a
    overflows, Re(e^z) - 1 from `c_exp`, which stays finite while e^a cos b does."""
    a, b = real(z), imag(z)
    c, _ = _cis(b)
    half_sin, _ = sin_cos(b * 0.5)
    w = c_exp(z)
    re = select(a > _exp_split(a), real(w) - 1.0, _expm1(a) * c - 2.0 * half_sin * half_sin)
    return complex_(re, imag(w))


def _log_abs(a: Num, b: Num) -> Num:
    """log|a + ib| without overflow, and without cancellation near |z| = 1."""
    x, y = abs(a), abs(b)
    mx, mn = maximum(x, y), minimum(x, y)
    near_one = (mx > 0.5) & (mx < 2.0)
    ratio = select(mx.eq(0.0), mx, mn / mx)
    far = _log(mx) + 0.5 * _log1p(ratio * ratio)
    near = 0.5 * _log1p((mx - 1.0) * (mx + 1.0) + mn * mn)
    return select(near_one, near, far)


def c_log(z: Num) -> Num:
    a, b = real(z), imag(z)
    return complex_(_log_abs(a, b), _atan2(b, a))


def c_log1p(z: Num) -> Num:
    """log(1 + z): the real part as 0.5 log1p(2a + a^2 + b^2) while |1 + z| is near 1."""
    a, b = real(z), imag(z)
    u = a + 1.0
    small = (abs(a) < 0.5) & (abs(b) < 0.5)
    re = select(small, 0.5 * _log1p(a * (a + 2.0) + b * b), _log_abs(u, b))
    return complex_(re, _atan2(b, u))


def c_sin(z: Num) -> Num:
    a, b = real(z), imag(z)
    s, c = sin_cos(a)
    return complex_(s * chlo_trig.cosh(b), select(b.eq(0.0), b, c * chlo_trig.sinh(b)))


def c_cos(z: Num) -> Num:
    a, b = real(z), imag(z)
    s, c = sin_cos(a)
    im = -(s * chlo_trig.sinh(b))
    return complex_(c * chlo_trig.cosh(b), select(b.eq(0.0), -(b * s), im))


def c_tanh(z: Num) -> Num:
    """tanh(z) = -i tan(iz): with tan(-b + ia) = p + iq, tanh(a + ib) = q - ip."""
    t = chlo_trig.complex_tan(complex_(-imag(z), real(z)))
    return complex_(imag(t), -real(t))


def c_logistic(z: Num) -> Num:
    return Num(stablehlo.divide(z.like(1.0).value, (1.0 + c_exp(-z)).value))


def c_sqrt(z: Num) -> Num:
    """t = sqrt((|a| + |z|) / 2); a >= 0: t + i b/(2t), else |b|/(2t) + i sign(b) t."""
    a, b = real(z), imag(z)
    t = sqrt((abs(a) + hypot(abs(a), abs(b))) * 0.5)
    zero = t.eq(0.0)
    other = select(zero, t, abs(b) / (2.0 * t))
    negative_b = (b < 0.0) | (b.eq(0.0) & (1.0 / b < 0.0))
    re = select(a >= 0.0, t, other)
    im = select(a >= 0.0, select(zero, b, b / (2.0 * t)), select(negative_b, -t, t))
    out = complex_(re, im)
    return select(is_nan(a) | is_nan(b), complex_(a + b, a + b), out)


def c_rsqrt(z: Num) -> Num:
    """conj(sqrt(z)) / |z|: no complex division, whose |w|^2 underflows for small z."""
    w = c_sqrt(z)
    size = hypot(abs(real(z)), abs(imag(z)))
    return complex_(real(w) / size, -imag(w) / size)


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
