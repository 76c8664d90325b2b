"""lgamma, digamma, polygamma, zeta (Hurwitz) and bessel_i1e, after XLA's chlo lowering:
Lanczos' approximation (g = 7, 9 terms) with Euler's reflection for x < 1/2, Johansson's
Euler-Maclaurin zeta, and Cephes' Chebyshev series for I1(x)e^-|x|.

Different from XLA: lgamma uses its Taylor series at the roots x = 1 and x = 2 (|x - root| <
1/5) and digamma at its positive root 1.4616... (|x - root| < 1/4), where Lanczos' sums keep
only an absolute error; the reflection terms sin(pi x) and cot(pi x) use sin(pi r) and cos(pi r)
as Taylor polynomials on the reduced argument |r| <= 1/2 (one rounding less than sin(pi * r),
and no dependence on the target's f64 sine, which IREE's CPU backend cannot link), and the
parity tests use x - 2 floor(x/2) instead of a floating-point remainder.

bessel_i1e also takes complex numbers (declared so upstream, but never lowered there): see
`_complex_bessel_i1e`. The other ops are real only.
"""
from __future__ import annotations

import math

import numpy as np

from ..lib.expr import (Num, chebyshev, complex_, exp, float_info, float_rule, floor, horner, hypot,
    imag, is_finite, log, power, real, select, sign, spread, sqrt, sum_over)
from ..numerics.log1p_expm1 import expm1, log1p
from .sincos import cos_pi, sin_cos, sin_pi

LANCZOS_G = 7.0
LANCZOS_BASE = 0.99999999999980993227684700473478
LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
           771.3234287776530788486528258894, -176.61502916214059906584551354,
           12.507343278686904814458936853, -0.13857109526572011689554707,
           9.984369578019570859563e-6, 1.50563273514931155834e-7)
LOG_PI = math.log(math.pi)
HALF_LOG_TWO_PI = (math.log(2.0) + math.log(math.pi)) / 2

# Hurwitz zeta: 1 / (Euler-Maclaurin coefficient) for the 12-term tail (Johansson, eq. 5).
ZETA_COEFFICIENTS = (-7.1661652561756670113e18, 1.8152105401943546773e17,
                     -4.5979787224074726105e15, 1.1646782814350067249e14,
                     -2.950130727918164224e12, 7.47242496e10, -1.8924375803183791606e9,
                     47900160.0, -1209600.0, 30240.0, -720.0, 12.0)

# I1(x) e^-|x|: Cephes i1.c Chebyshev series on [0, 8] (A) and (8, inf) (B).
I1E_F32_A = (9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
             -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
             4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
             -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
             2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
             -1.76416518357834055153e-1, 2.52587186443633654823e-1)
I1E_F32_B = (-3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
             -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
             7.78576235018280120474e-1)
I1E_F64_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
             -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
             3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
             -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
             *I1E_F32_A)
I1E_F64_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
             -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
             -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
             4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
             -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
             3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
             *I1E_F32_B)


def _poly(x: Num, coefficients) -> Num:
    return horner(x, coefficients)


def _zeta_integer(k: int, q: float = 1.0) -> float:
    """Hurwitz zeta(k, q) for an integer k >= 2 and q > 0: 99 terms plus the Euler-Maclaurin
    tail (computed once, when the module loads)."""
    n = q + 99
    head = math.fsum((q + j) ** -k for j in range(99))
    tail = (n ** (1 - k) / (k - 1) + 0.5 * n ** -k + k * n ** (-k - 1) / 12
            - k * (k + 1) * (k + 2) * n ** (-k - 3) / 720
            + k * (k + 1) * (k + 2) * (k + 3) * (k + 4) * n ** (-k - 5) / 30240)
    return head + tail


EULER_GAMMA = 0.57721566490153286061


def _root_series(minus_one: bool, terms: int) -> list[float]:
    """lgamma(1 + z) = -g z + sum_k (-1)^k zeta(k) z^k / k, and lgamma(2 + z) the same with
    1 - g and zeta(k) - 1: the coefficients of z^1 ... z^terms, highest degree first."""
    first = -EULER_GAMMA if minus_one else 1.0 - EULER_GAMMA
    rest = [(-1) ** k * (_zeta_integer(k) - (0 if minus_one else 1)) / k
            for k in range(2, terms + 1)]
    return ([first] + rest)[::-1]


# |z| <= 1/5 around the roots x = 1 and x = 2 (f32: 12 terms, f64: 24)
LGAMMA_NEAR_ONE = {f64: _root_series(True, n) for f64, n in ((False, 12), (True, 24))}
LGAMMA_NEAR_TWO = {f64: _root_series(False, n) for f64, n in ((False, 12), (True, 24))}


# digamma's positive root x0 = hi + lo (hi the nearest value of the computing type), and its
# Taylor series about hi: digamma(hi + d) = digamma(hi) + sum over k >= 1 of
# (-1)^(k + 1) zeta(k + 1, hi) d^k (|d| <= 1/4), d = x - hi exact. The low part lives only in
# the constant term digamma(hi) ~ -lo zeta(2, x0), not in `(x - hi) - lo`: Mesa folds two
# constants subtracted in a row into one (x - (hi + lo)), which drops lo (8.4e8 ULP on Vulkan).
DIGAMMA_ROOT = "1.4616321449683623412626595423257213284681962040064463512959884"


def _digamma_about_root(is_f64: bool, terms: int) -> tuple[float, list[float]]:
    """(hi, coefficients of digamma(hi + d) in d, highest degree first, the constant last)."""
    from decimal import Decimal
    exact = Decimal(DIGAMMA_ROOT)
    hi = float(np.float64(float(exact)) if is_f64 else np.float32(float(exact)))
    e = float(Decimal(hi) - exact)                  # digamma(x0 + e) = sum zeta terms in e
    at_hi = math.fsum((-1) ** k * _zeta_integer(k + 2, float(exact)) * e ** (k + 1)
                      for k in range(4))
    slopes = [(-1) ** (k + 1) * _zeta_integer(k + 1, hi) for k in range(1, terms + 1)]
    return hi, slopes[::-1] + [at_hi]


DIGAMMA_ABOUT_ROOT = {f64: _digamma_about_root(f64, n) for f64, n in ((False, 12), (True, 26))}


def _near_root(z: Num, coefficients) -> Num:
    return z * _poly(z, coefficients)


def _lanczos_z(x: Num):
    """Reflect x < 1/2: z = -x there, x - 1 elsewhere; and log(t) with t = z + g + 1/2."""
    reflect = x < 0.5
    z = select(reflect, -x, x - 1.0)
    log_t = math.log(LANCZOS_G + 0.5) + log1p(z / (LANCZOS_G + 0.5))
    return reflect, z, z + (LANCZOS_G + 0.5), log_t


def lgamma(x: Num) -> Num:
    reflect, z, t, log_t = _lanczos_z(x)
    a = z.like(LANCZOS_BASE)
    for i, c in enumerate(LANCZOS):
        a = a + c / (z + float(i + 1))
    # (z + 1/2) log t - t, as (z + 1/2 - t / log t) log t so it does not overflow
    r = (z + 0.5 - t / log_t) * log_t
    result = HALF_LOG_TWO_PI + r + log(a)
    # reflection: lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x), sin(pi x) from the
    # fractional part of |x| folded into [0, 1/2]
    ax = abs(x)
    frac = ax - floor(ax)
    frac = select(frac > 0.5, 1.0 - frac, frac)
    log_sin = log(sin_pi(frac))
    reflected = select(is_finite(log_sin), LOG_PI - log_sin - result, -log_sin)
    result = select(reflect, reflected, result)
    # near the roots 1 and 2 the Lanczos sum keeps only an absolute error: use the series
    z1, z2 = x - 1.0, x - 2.0
    result = select(abs(z1) < 0.2, _near_root(z1, LGAMMA_NEAR_ONE[x.is_f64]), result)
    result = select(abs(z2) < 0.2, _near_root(z2, LGAMMA_NEAR_TWO[x.is_f64]), result)
    return select(ax.eq(float("inf")), ax, result)


def digamma(x: Num) -> Num:
    reflect, z, t, log_t = _lanczos_z(x)
    a, da = z.like(LANCZOS_BASE), z.like(0.0)
    for i, c in enumerate(LANCZOS):
        zi = z + float(i + 1)
        da = da - c / (zi * zi)
        a = a + c / zi
    result = log_t + da / a - LANCZOS_G / t
    # reflection: digamma(x) = digamma(1 - x) - pi cot(pi x), with x reduced to [-1/2, 1/2]
    reduced = x + abs(floor(x + 0.5))
    reflected = result - math.pi * cos_pi(reduced) / sin_pi(reduced)
    result = select(reflect, reflected, result)
    hi, coefficients = DIGAMMA_ABOUT_ROOT[x.is_f64]
    d = x - hi
    result = select(abs(d) < 0.25, _poly(d, coefficients), result)
    negative_integer = (x < 0.0) & x.eq(floor(x))
    result = select(negative_integer, float("nan"), result)
    return select(x.eq(0.0), float("-inf"), result)


def _is_even_integer(x: Num) -> Num:
    half = floor(x * 0.5)
    return x.eq(floor(x)) & (x - 2.0 * half).eq(0.0)


def zeta(x: Num, q: Num) -> Num:
    """Hurwitz zeta(x, q) = sum over k >= 0 of (q + k)^-x, for x > 1."""
    minus_x = -x
    # the first 10 terms as one vector (spread): one power for the compiler instead of ten
    qs, k = spread(q, [float(k) for k in range(10)])
    minus_xs, _ = spread(minus_x, [0.0] * 10)
    power_sum = sum_over(power(qs + k, minus_xs), [qs.type.rank - 1])
    acc = q + 10.0
    q_power = power(acc, minus_x)
    # acc^(1-x) / (x - 1), not q_power * acc: acc^-x underflows (or is flushed as a subnormal)
    # long before acc^(1-x) does (zeta(4, 3e9) in f32 is 1.2e-29, but 3e9^-4 is subnormal)
    correction = power(acc, 1.0 - x) / (x - 1.0)
    inv_acc2 = 1.0 / (acc * acc)
    terms = len(ZETA_COEFFICIENTS)
    tail = q.like(0.0)
    for i in range(terms - 1):
        factors = (x + float(2 * terms - 2 - 2 * i)) * (x + float(2 * terms - 3 - 2 * i))
        tail = factors * (inv_acc2 * (tail + 1.0 / ZETA_COEFFICIENTS[i]))
    tail = q_power * (0.5 + (x / acc) * (1.0 / ZETA_COEFFICIENTS[-1] + tail))
    accurate = power_sum + correction + tail
    smallest = float_info(q.element).smallest
    out = select(abs(q_power) < abs(power_sum) * smallest, power_sum, accurate)
    nan, inf = float("nan"), float("inf")
    out = select(x < 1.0, nan, out)
    q_nonpositive = q <= 0.0
    out = select(q_nonpositive & x.ne(floor(x)), nan, out)
    at_pole = q_nonpositive & q.eq(floor(q))
    out = select(at_pole, select(_is_even_integer(x), x.like(inf), nan), out)
    return select(x.eq(1.0), inf, out)


def polygamma(n: Num, x: Num) -> Num:
    """psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for natural n > 0, digamma for n = 0."""
    n_odd = n - 2.0 * floor(n * 0.5)
    sign = 2.0 * n_odd - 1.0
    n1 = n + 1.0
    result = sign * exp(lgamma(n1)) * zeta(n1, x)
    result = select(n.eq(0.0), digamma(x), result)
    not_natural = n.ne(floor(n)) | (n < 0.0)
    return select(not_natural, float("nan"), result)


def bessel_i1e(x: Num) -> Num:
    a_coefficients, b_coefficients = ((I1E_F64_A, I1E_F64_B) if x.is_f64
                                      else (I1E_F32_A, I1E_F32_B))
    z = abs(x)
    small = z * chebyshev(z * 0.5 - 2.0, a_coefficients)
    large = chebyshev(32.0 / z - 2.0, b_coefficients) / sqrt(z)
    return sign(x) * select(z <= 8.0, small, large)


# Complex I1(z) e^-|Re z|: the trapezoidal rule on I1(z) = (1/pi) int_0^pi e^(z cos t) cos t dt
# for |z| <= R (exponentially accurate for this periodic integrand, and with no cancellation
# near the imaginary axis, unlike the power series), Hankel's expansion beyond.
# keyed by is_f64: (R, quadrature points M, asymptotic terms K)
I1E_COMPLEX = {False: (12.0, 20, 24), True: (20.0, 40, 40)}


def _hankel_coefficients(terms: int) -> list[float]:
    """a_k(1) = prod_{j<=k} (4 - (2j - 1)^2) / (k! 8^k)."""
    out, a = [1.0], 1.0
    for k in range(1, terms):
        a *= (4.0 - (2 * k - 1) ** 2) / (k * 8.0)
        out.append(a)
    return out


def _unit(angle: Num) -> tuple[Num, Num]:
    """(cos, sin) of a real angle."""
    s, c = sin_cos(angle)
    return c, s


def _complex_bessel_i1e(z: Num) -> Num:
    """complex<f32> is computed in complex<f64>: the quadrature's sum cancels to the small one
    of the two parts (a real part 1e-3 of the imaginary one costs 10 bits)."""
    if not z.is_f64:
        return _complex_bessel_i1e(z.to("complex<f64>")).to(z.element)
    x0, y0 = real(z), imag(z)
    flip = x0 < 0.0                        # I1(-z) = -I1(z): work with Re z >= 0
    x, y = abs(x0), select(flip, -y0, y0)
    radius, points, terms = I1E_COMPLEX[z.is_f64]
    # trapezoidal rule, scaled by e^-x, with the nodes t and pi - t paired (cos t = c >= 0):
    # re += 2c cos(yc) e^-x sinh(xc), im += 2c sin(yc) e^-x cosh(xc), which keeps the real
    # part exact (0 on the imaginary axis, small near it). The nodes form one vector (spread):
    # unrolled, their exp/expm1/sin/cos made complex<f64> bessel_i1e a ~25 s compile.
    nodes = [math.cos(math.pi * j / points) for j in range(points // 2)]
    xs, c_minus_1 = spread(x, [ct - 1.0 for ct in nodes])
    _, minus_2c = spread(x, [-2.0 * ct for ct in nodes])
    ys, ct = spread(y, nodes)
    _, weight = spread(x, [(0.5 if j == 0 else 1.0) * c / points for j, c in enumerate(nodes)])
    scale = exp(xs * c_minus_1)                      # e^-x e^(xc) <= 1
    e2 = expm1(xs * minus_2c)                        # e^(-2xc) - 1
    c, s = _unit(ys * ct)
    last = [xs.type.rank - 1]
    re_sum = sum_over((scale * -e2) * c * weight, last)
    im_sum = sum_over((scale * (e2 + 2.0)) * s * weight, last)
    # Hankel: e^-x I1 ~ e^(iy) S(-1) / sqrt(2 pi z) -+ i e^(-2x) e^(-iy) S(+1) / sqrt(2 pi z)
    w = complex_(x, y)
    inv = _reciprocal(x, y)
    a = _hankel_coefficients(terms)
    power, alternating, plain = inv.like(1.0 + 0j), inv.like(1.0 + 0j), inv.like(1.0 + 0j)
    for k in range(1, terms):
        power = power * inv
        alternating = alternating + power * ((-1) ** k * a[k])
        plain = plain + power * a[k]
    c, s = _unit(y)
    first = complex_(c, s) * alternating
    damp = exp(-2.0 * x)
    turn = select(y > 0.0, y.like(-1.0), 1.0)     # -i above the real axis, +i below
    second = complex_(s * damp * turn, c * damp * turn) * plain      # +-i e^(-2x) e^(-iy)
    second = select(y.eq(0.0), second.like(0j), second)     # I1 is real on the real axis
    root = _sqrt_right_half(x, y)
    asymptotic = (first + second) * _reciprocal(real(root), imag(root)) * (
        1.0 / math.sqrt(2.0 * math.pi))
    out = select(abs(w) <= radius, complex_(re_sum, im_sum), asymptotic)
    out = complex_(select(x.eq(0.0), x.like(0.0), real(out)), imag(out))  # I1(iy) = i J1(y)
    # tiny |z|: I1(z) = z/2 exactly enough (the quadrature's terms would underflow)
    out = select(abs(w) < 2.0 ** -28, w * (exp(-x) * 0.5).to(w.element), out)
    return select(flip, -out, out)


def _reciprocal(x: Num, y: Num) -> Num:
    """1 / (x + iy) as (x/r - iy/r) / r, r = |x + iy|: no overflow of r^2 for large inputs."""
    r = hypot(abs(x), abs(y))
    return complex_(x / r / r, -(y / r) / r)


def _sqrt_right_half(x: Num, y: Num) -> Num:
    """sqrt(x + iy) for x >= 0, without the target's complex sqrt (IREE builds that from
    atan2, sin and cos, which its CPU backend lacks in f64)."""
    t = sqrt((x + hypot(x, abs(y))) * 0.5)
    return complex_(t, y / (t * 2.0))


zeta_rule = float_rule(zeta, name="zeta")
polygamma_rule = float_rule(polygamma, name="polygamma")

RULES = {
    "chlo.lgamma": float_rule(lgamma, name="lgamma"),
    "chlo.digamma": float_rule(digamma, name="digamma"),
    "chlo.zeta": zeta_rule,
    "chlo.polygamma": polygamma_rule,
    "chlo.bessel_i1e": float_rule(bessel_i1e, _complex_bessel_i1e, name="bessel_i1e"),
}
