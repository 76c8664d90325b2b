"""The exact CHLO ops: conj, square, is_inf, is_pos_inf, is_neg_inf, next_after and mulhi.

* square of a complex number gives an exact 0 real part when |re| == |im| (XLA's rule), and
  its imaginary part as (2 re) im for |re| <= 1, which does not underflow early, and as
  re (2 im) above, which does not overflow early;
* is_inf and friends are constant false on float types without infinities (f8E4M3FN, the
  FNUZ types, f8E8M0FNU, f6, f4), where comparing with an inf constant is meaningless;
* next_after steps the bit pattern (as XLA does) for every float type with an integer of its
  width (64 down to 4 bits), with the fixes the FNUZ types (no -0) and the unsigned
  exponent-only f8E8M0FNU need;
* mulhi widens to twice the width when it can and uses 32-bit limbs for 64-bit integers.
"""
from __future__ import annotations

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import element_dtype
from shlo.errors import PassError
from ..lib.expr import (Num, complex_, const, float_info, imag, is_complex, is_finite, is_nan, real,
    select)

# --- conj, square --------------------------------------------------------------------------------


def _conj(m):
    x = Num(m.operands[0])
    if not is_complex(x.element):
        return [x.value]
    return [complex_(real(x), -imag(x)).value]


def _square(m):
    x = Num(m.operands[0])
    if not is_complex(x.element):
        return [(x * x).value]
    re, im = real(x), imag(x)
    exact_zero = is_finite(re) & abs(re).eq(abs(im))
    # (re + re) * im while |re| <= 1 (the product stays normal when the result is), and
    # re * (im + im) above (re + re overflows for |re| > max / 2; im + im only overflows
    # where the result does; no constant factor, which Mesa's compiler moves onto re)
    twice = select(abs(re) > 1.0, re * (im + im), (re + re) * im)
    return [complex_(select(exact_zero, 0.0, (re - im) * (re + im)), twice).value]


# --- is_inf --------------------------------------------------------------------------------------

def _inf_test(kind: str):
    def rule(m):
        x = Num(m.operands[0])
        i1 = ir.IntegerType.get_signless(1)
        if not float_info(x.element).has_inf:
            return [const(False, x.value, i1)]
        if str(x.element) not in ("f16", "bf16", "f32", "f64"):
            x = x.to("f32")         # exact; backends lack abs/compare on 8-bit floats
        if kind == "any":
            return [abs(x).eq(float("inf")).value]
        return [x.eq(float("inf") if kind == "pos" else float("-inf")).value]
    return rule


# --- next_after ---------------------------------------------------------------------------------

def next_after_rule(m):
    x, y = Num(m.operands[0]), Num(m.operands[1])
    info = float_info(x.element)
    if info.bits < 8:
        return [_next_after_by_table(x, y).value]
    if not info.has_negative:
        return [_next_after_unsigned(x, y, info).value]
    return [_next_after_signed(x, y, info).value]


def _next_after_by_table(x: Num, y: Num) -> Num:
    """Sub-byte floats (f4, f6): their few values, exact in f32, are the table; the neighbour
    of x towards y is the nearest table value past x (integers of their width would have to
    live in bytes, where a bitcast no longer means the same bits)."""
    table = sorted(set(float(v) for v in _all_values(x.element) if np.isfinite(v)))
    xf, yf = x.to("f32"), y.to("f32")
    up, down = xf, xf
    for v in reversed(table):                   # ends on the smallest value above x
        up = select(xf < v, xf.like(v), up)
    for v in table:                             # ends on the largest value below x
        down = select(xf > v, xf.like(v), down)
    out = select(yf > xf, up, select(yf < xf, down, yf))
    return select(is_nan(xf) | is_nan(yf), xf.like(float("nan")), out).to(x.element)


def _all_values(element: ir.Type) -> np.ndarray:
    """Every value of a float type of at most 8 bits, as float64."""
    dtype = element_dtype(element)
    bits = float_info(element).bits
    return np.arange(1 << bits, dtype=np.uint8).view(dtype).astype(np.float64)


def _next_after_signed(x: Num, y: Num, info) -> Num:
    """Move x's bit pattern one step towards y (sign-magnitude ordering)."""
    bits = f"i{info.bits}"
    xi, yi = x.bitcast(bits), y.bitcast(bits)
    sign_mask = -(1 << (info.bits - 1))          # the sign bit, as a signed integer
    x_abs, y_abs = xi & ~sign_mask, yi & ~sign_mask
    x_sign, y_sign = xi & sign_mask, yi & sign_mask
    towards_zero = (x_abs > y_abs) | x_sign.ne(y_sign)
    stepped = xi + select(towards_zero, xi.like(-1), 1)
    from_zero = y_sign | 1                          # the smallest subnormal, signed like y
    out = select(x_abs.eq(0), select(y_abs.eq(0), yi, from_zero), stepped)
    if not info.has_negative_zero:                  # FNUZ: the -0 pattern is NaN there
        out = select(out.eq(sign_mask), out.like(0), out)
    out = select(x.eq(y), yi, out)
    if info.has_nan:
        out = select(is_nan(x) | is_nan(y), x.like(float("nan")).bitcast(bits), out)
    return out.bitcast(x.element)


def _next_after_unsigned(x: Num, y: Num, info) -> Num:
    """f8E8M0FNU: positive powers of two in increasing bit order, 0xff is NaN."""
    bits = f"ui{info.bits}"
    xi, yi = x.bitcast(bits), y.bitcast(bits)
    nan = xi.like((1 << info.bits) - 1)
    out = xi + select(xi < yi, xi.like(1), nan)     # + 0xff wraps to - 1
    out = select(xi.eq(yi), yi, out)
    out = select(xi.eq(nan) | yi.eq(nan), nan, out)
    return out.bitcast(x.element)


# --- mulhi ---------------------------------------------------------------------------------------

def _mulhi(m):
    a, b = Num(m.operands[0]), Num(m.operands[1])
    t = a.element.maybe_downcast()
    if not isinstance(t, ir.IntegerType) or t.width < 2:
        raise PassError(f"shlo-legalize-chlo: chlo.mulhi needs integer operands, got "
                        f"{a.element}", at=m.op)
    width, unsigned = t.width, t.is_unsigned
    if width <= 32:
        wide = next(w for w in (8, 16, 32, 64) if w >= 2 * width)
        wide_type = f"{'ui' if unsigned else 'i'}{wide}"
        product = a.to(wide_type) * b.to(wide_type)
        shifted = _shift_right(product, width, arithmetic=not unsigned)
        return [shifted.to(a.element).value]
    if unsigned:
        return [_mulhi_u64(a, b).value]
    high = _mulhi_u64(a.bitcast("ui64"), b.bitcast("ui64")).bitcast("i64")
    # signed high word = unsigned high word - (a < 0 ? b : 0) - (b < 0 ? a : 0)  (mod 2^64)
    high = high - select(a < 0, b, 0) - select(b < 0, a, 0)
    return [high.value]


def _shift_right(x: Num, amount: int, arithmetic: bool) -> Num:
    op = stablehlo.shift_right_arithmetic if arithmetic else stablehlo.shift_right_logical
    return Num(op(x.value, const(amount, x.value)))


def _mulhi_u64(a: Num, b: Num) -> Num:
    """High 64 bits of a 64x64-bit unsigned product from 32-bit limbs (Hacker's Delight)."""
    low = 0xFFFFFFFF
    a_hi, b_hi = _shift_right(a, 32, False), _shift_right(b, 32, False)
    a_lo, b_lo = a & low, b & low
    t = a_hi * b_lo + _shift_right(a_lo * b_lo, 32, False)
    w1 = (t & low) + a_lo * b_hi
    return a_hi * b_hi + _shift_right(t, 32, False) + _shift_right(w1, 32, False)


RULES = {
    "chlo.conj": _conj,
    "chlo.square": _square,
    "chlo.is_inf": _inf_test("any"),
    "chlo.is_pos_inf": _inf_test("pos"),
    "chlo.is_neg_inf": _inf_test("neg"),
    "chlo.next_after": next_after_rule,
    "chlo.mulhi": _mulhi,
}
