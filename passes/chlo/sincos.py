"""sin and cos as polynomials, for the decompositions that need them: sin(pi r) and cos(pi r)
on |r| <= 1/2 (the gamma-function reflections) and sin/cos of any argument (stablehlo
sine/cosine/tan through shlo-accurate-math, complex functions, chlo.tan).

Why not stablehlo.sine/cosine: IREE's CPU backend has no f64 sine or cosine (the link fails),
and its f32 ones are wrong: the sign of sin(x) for tiny negative x, large errors near the
zeros of cos (its argument reduction loses about one ULP per unit of |x|), and +-inf for huge
|x| (docs/iree_gaps.md#shlo-accurate-math).
Here the argument is reduced modulo pi/2 by Cody-Waite (exact while
|x| < 2^12 pi/2 in f32, 2^20 pi/2 in f64) and, for larger arguments, by Payne-Hanek: the
significand times a window of the bits of 2/pi chosen by the exponent, in 64-bit integer
arithmetic on 32-bit limbs: 24 bits times 96 for f32, 53 bits times 192 for f64 (the
product's error is below 2^-137 of a quadrant, where the f64 argument closest to a multiple
of pi/2 is 2^-61 of one away).
"""
from __future__ import annotations

import math

import numpy as np

from shlo.dialect import stablehlo
from ..lib.expr import Num, horner, is_finite, round_even, select, shift_left, shift_right_logical


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


def _two_over_pi_bits(bits: int) -> int:
    """floor(2/pi * 2^bits), from Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) in
    integer fixed point (64 guard bits)."""
    one = 1 << (bits + 64)

    def atan_inverse(n: int) -> int:        # atan(1/n) * one
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k, sign = k + 2, -sign
        return total
    pi = 16 * atan_inverse(5) - 4 * atan_inverse(239)
    return (2 * one << bits) // pi


# f32 Payne-Hanek: for a biased exponent b, x = M 2^(b-150) with a 24-bit integer M, and
# x 2/pi mod 4 = (M T mod 2^96) 2^-94, where T = floor(2/pi 2^(b-56)) mod 2^96 (the bits of 2/pi
# of weight 2^1 .. 2^-94 once multiplied by 2^(b-150); the lost tail is below 2^-70).
_PH_FIRST_EXPONENT, _PH_LAST_EXPONENT = 127 + 12, 254       # |x| >= 2^12 takes this path
_TWO_OVER_PI = _two_over_pi_bits(254 - 56 + 8)


def _ph_window(b: int) -> int:
    return (_TWO_OVER_PI >> (254 - 56 + 8 - (b - 56))) % (1 << 96)


_PH_WORDS = [[(_ph_window(b) >> (32 * i)) & 0xFFFFFFFF
              for b in range(_PH_FIRST_EXPONENT, _PH_LAST_EXPONENT + 1)] for i in range(3)]
_MASK32 = 0xFFFFFFFF


def _lookup(words: list[int], index: Num) -> Num:
    """words[index] (ui64) for an i32 index tensor of any shape: a gather from a constant."""
    from iree.compiler import ir
    table = stablehlo.constant(np.array(words, np.uint64), result_type=ir.RankedTensorType.get(
        [len(words)], ir.IntegerType.get_unsigned(64)))
    rank = index.type.rank
    result = ir.RankedTensorType.get(index.type.shape, ir.IntegerType.get_unsigned(64))
    return Num(stablehlo.gather(table, index.value, offset_dims=[], collapsed_slice_dims=[0],
                                start_index_map=[0], index_vector_dim=rank, slice_sizes=[1],
                                result_type=result))


def _limbs_times(m: list[Num], t: list[Num]) -> list[Num]:
    """The low len(t) 32-bit limbs (ui64 values below 2^32) of the product of two numbers
    given as little-endian 32-bit limbs."""
    columns: list[list[Num]] = [[] for _ in t]
    for i, mi in enumerate(m):
        for j, tj in enumerate(t):
            if i + j < len(t):
                product = mi * tj                           # below 2^64: no overflow
                columns[i + j].append(product & _MASK32)
                if i + j + 1 < len(t):
                    columns[i + j + 1].append(shift_right_logical(product, 32))
    limbs, carry = [], None
    for column in columns:
        total = column[0]
        for term in column[1:] + ([carry] if carry is not None else []):
            total = total + term                            # a few 32-bit terms: no overflow
        limbs.append(total & _MASK32)
        carry = shift_right_logical(total, 32)
    return limbs


def reduce_payne_hanek(x: Num) -> tuple[Num, Num]:
    """(r, k) with x = k pi/2 + r, |r| <= pi/4, k an i32, for f32 x with |x| >= 2^12."""
    bits = abs(x).bitcast("ui32")
    exponent = shift_right_logical(bits, 23)
    significand = ((bits & 0x7FFFFF) | 0x800000).to("ui64")
    index = select(exponent < _PH_FIRST_EXPONENT, exponent.like(_PH_FIRST_EXPONENT),
                   select(exponent > _PH_LAST_EXPONENT, _PH_LAST_EXPONENT, exponent))
    index = (index - _PH_FIRST_EXPONENT).to("i32")
    _, middle, high = _limbs_times([significand], [_lookup(words, index) for words in _PH_WORDS])
    # y = x 2/pi mod 4 = high:middle / 2^62 (2 integer bits, 62 fraction bits), to nearest
    fraction = shift_left(high & 0x3FFFFFFF, 32) | middle
    up = fraction >= (1 << 61)
    k = (shift_right_logical(high, 30) + select(up, fraction.like(1), 0)).to("i32")
    signed = fraction.to("i64") - select(up, fraction.like(1 << 62), 0).to("i64")
    r = signed.to("f32") * (math.pi / 2 * 2.0 ** -62)
    negative = x < 0.0
    return select(negative, -r, r), select(negative, -k, k)


# f64 Payne-Hanek: x = M 2^(b-1075) with a 53-bit integer M (b the biased exponent), and
# x 2/pi mod 4 = (M T mod 2^192) 2^-190, where T = floor(2/pi 2^(b-1075+190)) mod 2^192 (six
# 32-bit limbs per exponent; the dropped tail of 2/pi costs less than M 2^-190 < 2^-137).
_PH64_FIRST_EXPONENT, _PH64_LAST_EXPONENT = 1023 + 20, 2046     # |x| >= 2^20 takes this path
_PH64_FRACTION_BITS, _PH64_LIMBS = 190, 6
_TWO_OVER_PI_64 = _two_over_pi_bits(_PH64_LAST_EXPONENT - 1075 + _PH64_FRACTION_BITS + 8)


def _ph64_window(b: int) -> int:
    shift = _PH64_LAST_EXPONENT - 1075 + _PH64_FRACTION_BITS + 8 - (b - 1075 + _PH64_FRACTION_BITS)
    return (_TWO_OVER_PI_64 >> shift) % (1 << (32 * _PH64_LIMBS))


_PH64_WORDS = [[(_ph64_window(b) >> (32 * i)) & _MASK32
                for b in range(_PH64_FIRST_EXPONENT, _PH64_LAST_EXPONENT + 1)]
               for i in range(_PH64_LIMBS)]


def reduce_payne_hanek_f64(x: Num) -> tuple[Num, Num]:
    """(r, k) with x = k pi/2 + r, |r| <= pi/4, k an i64, for f64 x with |x| >= 2^20."""
    bits = abs(x).bitcast("ui64")
    exponent = shift_right_logical(bits, 52)
    significand = (bits & ((1 << 52) - 1)) | (1 << 52)
    index = select(exponent < _PH64_FIRST_EXPONENT, exponent.like(_PH64_FIRST_EXPONENT),
                   select(exponent > _PH64_LAST_EXPONENT, _PH64_LAST_EXPONENT, exponent))
    index = (index - _PH64_FIRST_EXPONENT).to("i32")
    window = [_lookup(words, index) for words in _PH64_WORDS]
    l0, l1, l2, l3, l4, l5 = _limbs_times([significand & _MASK32,
                                           shift_right_logical(significand, 32)], window)
    # y = x 2/pi mod 4 = P 2^-190: 2 integer bits on top of l5, then 190 fraction bits
    top = shift_left(l5 & 0x3FFFFFFF, 32) | l4                       # fraction bits 2^-1..2^-62
    middle = shift_left(l3, 32) | l2                                 # 2^-63 .. 2^-126
    low = shift_left(l1, 32) | l0                                    # 2^-127 .. 2^-190
    up = top >= (1 << 61)                       # fraction >= 1/2: the next quadrant, r < 0
    k = (shift_right_logical(l5, 30) + select(up, top.like(1), 0)).to("i64")
    # |fraction - (1 if up)|: 1 - f is ~f over the 190 bits (to 2^-190)
    top = select(up, ~top & ((1 << 62) - 1), top)
    middle, low = select(up, ~middle, middle), select(up, ~low, low)
    # to f64 in pieces that convert exactly, smallest last (r may be as small as 2^-61)
    magnitude = ((shift_right_logical(top, 31).to("f64") * 2.0 ** -31
                  + (top & 0x7FFFFFFF).to("f64") * 2.0 ** -62)
                 + (shift_right_logical(middle, 11).to("f64") * 2.0 ** -115
                    + shift_right_logical(low, 11).to("f64") * 2.0 ** -179))
    r = magnitude * (math.pi / 2)
    r = select(up, -r, r)
    negative = x < 0.0
    return select(negative, -r, r), select(negative, -k, k)


def sin_cos(x: Num) -> tuple[Num, Num]:
    """(sin x, cos x): x = k pi/2 + r with |r| <= pi/4, polynomials in r, quadrant k mod 4."""
    f64 = x.is_f64
    p1, p2, p3 = HALF_PI[f64]
    k = round_even(x * (2 / math.pi))
    r = ((x - k * p1) - k * p2) - k * p3
    quadrant = k.to("i64" if f64 else "i32")
    huge = (abs(x) >= (2.0 ** 20 if f64 else 2.0 ** 12)) & is_finite(x)
    r_huge, k_huge = reduce_payne_hanek_f64(x) if f64 else reduce_payne_hanek(x)
    r, quadrant = select(huge, r_huge, r), select(huge, k_huge, quadrant)
    r2 = r * r
    s = r * horner(r2, SIN[f64])
    c = horner(r2, COS[f64])
    quadrant = quadrant & 3
    swap = (quadrant & 1).eq(1)
    sin_x = select(swap, c, s)
    cos_x = select(swap, s, c)
    sin_x = select(quadrant >= 2, -sin_x, sin_x)
    # sin(+-0) = +-0: the reduction turns -0 into r = -0 - (-0) p1 = +0 (tan = sin/cos too)
    sin_x = select(x.eq(0.0), x, sin_x)
    cos_negative = quadrant.eq(1) | quadrant.eq(2)
    cos_x = select(cos_negative, -cos_x, cos_x)
    return sin_x, cos_x
