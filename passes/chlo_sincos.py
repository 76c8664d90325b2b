"""sin and cos as polynomials, for the decompositions that need them: sin(pi r) and cos(pi r)
on |r| <= 1/2 (the gamma-function reflections) and sin/cos of any argument by Cody-Waite
reduction modulo pi/2 (complex sinh/cosh, tan).

Why not stablehlo.sine/cosine: IREE's CPU backend has no f64 sine or cosine (the link fails),
its f32 sine returns the wrong sign for tiny negative inputs, and its f32 argument reduction
loses about one ULP per unit of |x| (270 ULP at x = 246, measured). The reduction here is
exact while |x| < 2^12 pi/2 (f32) or 2^20 pi/2 (f64); past that, f32 and narrower types take
the target's sine and cosine, and f64 stays bounded (no f64 sine to fall back to).
"""
from __future__ import annotations

import math

import numpy as np

from ..dialect import stablehlo
from .chlo_expr import Num, horner, round_even, select


def _taylor(odd: bool, terms: int, scale: float = 1.0) -> list[float]:
    """Coefficients of sin(s r)/r (odd) or cos(s r) (even) in r^2, highest degree first."""
    out = []
    for k in range(terms):
        n = 2 * k + (1 if odd else 0)
        out.append((-1) ** k * scale ** n / math.factorial(n))
    return out[::-1]


# keyed by is_f64; |argument| <= pi/2 (times pi: |r| <= 1/2) and <= pi/4 respectively
SIN_PI = {False: _taylor(True, 8, math.pi), True: _taylor(True, 12, math.pi)}
COS_PI = {False: _taylor(False, 8, math.pi), True: _taylor(False, 12, math.pi)}
SIN = {False: _taylor(True, 6), True: _taylor(True, 11)}
COS = {False: _taylor(False, 7), True: _taylor(False, 11)}


def sin_pi(r: Num) -> Num:
    """sin(pi r) for |r| <= 1/2."""
    return r * horner(r * r, SIN_PI[r.is_f64])


def cos_pi(r: Num) -> Num:
    """cos(pi r) for |r| <= 1/2."""
    return horner(r * r, COS_PI[r.is_f64])


HALF_PI_DIGITS = "1.57079632679489661923132169163975144209858469968755291048747"


def _half_pi_parts(is_f64: bool) -> tuple[float, float, float]:
    """pi/2 = p1 + p2 + p3 (to ~100 bits) with p1, p2 short enough that k * p1 and k * p2
    are exact."""
    from decimal import Decimal, getcontext
    getcontext().prec = 60
    bits = 30 if is_f64 else 11
    exact = Decimal(HALF_PI_DIGITS)

    def chop(v: Decimal) -> float:
        m, e = math.frexp(float(v))
        return math.ldexp(math.floor(m * 2 ** bits) / 2 ** bits, e)
    p1 = chop(exact)
    p2 = chop(exact - Decimal(p1))
    rest = float(exact - Decimal(p1) - Decimal(p2))
    return p1, p2, float(np.float64(rest) if is_f64 else np.float32(rest))


HALF_PI = {f64: _half_pi_parts(f64) for f64 in (False, True)}


def sin_cos(x: Num) -> tuple[Num, Num]:
    """(sin x, cos x): x = k pi/2 + r with |r| <= pi/4, polynomials in r, quadrant k mod 4."""
    f64 = x.is_f64
    p1, p2, p3 = HALF_PI[f64]
    k = round_even(x * (2 / math.pi))
    r = ((x - k * p1) - k * p2) - k * p3
    # past the exact range the reduction is meaningless; keep the polynomials bounded
    r = select(r > math.pi / 4, r.like(math.pi / 4), select(r < -math.pi / 4, -math.pi / 4, r))
    r2 = r * r
    s = r * horner(r2, SIN[f64])
    c = horner(r2, COS[f64])
    quadrant = k.to("i64" if f64 else "i32") & 3
    swap = (quadrant & 1).eq(1)
    sin_x = select(swap, c, s)
    cos_x = select(swap, s, c)
    sin_x = select(quadrant >= 2, -sin_x, sin_x)
    cos_negative = quadrant.eq(1) | quadrant.eq(2)
    cos_x = select(cos_negative, -cos_x, cos_x)
    if f64:         # (no f64 sine on the target to fall back to: bounded, not meaningful)
        return sin_x, cos_x
    # past the exact range: the target's own sine and cosine, inexact but meaningful
    exact = abs(x) < EXACT_LIMIT
    return (select(exact, sin_x, Num(stablehlo.sine(x.value))),
            select(exact, cos_x, Num(stablehlo.cosine(x.value))))


EXACT_LIMIT = 2.0 ** 12 * math.pi / 2     # f32: where k * p1 stops being exact
