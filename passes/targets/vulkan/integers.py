"""Vulkan quirk rewrites of integer ops: signed min/max reductions in unsigned order, byte
reductions of 8 elements in 32 bits, narrow and 64-bit count_leading_zeros, unsigned division, remainders (docs/iree_gaps.md)."""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import constant_values
from ...base import binary_body
from ...lib.expr import Num, element_of, float_info, is_float, select, shift_right_logical
from ...lib.builders import fence
from ...op_rules import CANONICAL


def signed_min_max_reduce(op: ir.Operation):
    """A min or max reduce over signed integers: over unsigned ones of the same width, the
    values moved by 2^(N-1) (x xor the sign bit, which keeps their order), and back, stored
    before its users read it (a convolution fused with it read 4080 of 4093 values wrong). One
    over no dimensions is the elementwise min/max with the init."""
    if len(op.operands) != 2:
        return None
    element = element_of(op.operands[0])
    if not isinstance(element, ir.IntegerType) or not element.is_signless or element.width < 8:
        return None
    combine = binary_body(op)
    if combine is None or combine.name not in ("stablehlo.minimum", "stablehlo.maximum"):
        return None
    pick = stablehlo.minimum if combine.name == "stablehlo.minimum" else stablehlo.maximum
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    if not dimensions:          # each result is min/max(init, x): elementwise, signed
        x, init = op.operands
        spread = stablehlo.broadcast_in_dim(init, broadcast_dimensions=[], result_type=x.type)
        return [pick(spread, x)]
    sign = -(1 << (element.width - 1))
    unsigned = ir.IntegerType.get_unsigned(element.width)
    moved = [(Num(v) ^ sign).bitcast(unsigned).value for v in op.operands]
    result = stablehlo.reduce([moved[0]], [moved[1]], dimensions=dimensions,
                              body=lambda a, b: pick(a, b))
    return fence([(Num(result).bitcast(element) ^ sign).value])


_WIDENED_BODIES = {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum",
                   "stablehlo.and", "stablehlo.or", "stablehlo.xor"}


def widened_byte_reduce(op: ir.Operation):
    """A reduce of 8-bit integers over exactly 8 elements per result (IREE's vulkan compile
    crashed with SIGFPE from about 300 results on) in 32 bits of the same signedness and back:
    the same result for a sum, product, min, max or bitwise body, whose low 8 bits depend on
    the operands' low 8 bits alone (min and max: extension keeps the order)."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    element, shape = element_of(x), ir.RankedTensorType(x.type).shape
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    combine = binary_body(op)
    if not isinstance(element, ir.IntegerType) or element.width != 8 or combine is None \
            or combine.name not in _WIDENED_BODIES or math.prod(shape[d] for d in dimensions) != 8:
        return None
    wide = (ir.IntegerType.get_unsigned if element.is_unsigned else ir.IntegerType.get_signless)(32)
    name = combine.name.removeprefix("stablehlo.")
    body = getattr(stablehlo, {"and": "and_", "or": "or_"}.get(name, name))
    result = stablehlo.reduce([Num(x).to(wide).value], [Num(init).to(wide).value],
                              dimensions=dimensions, body=body)
    return [Num(result).to(element).value]


def count_leading_zeros(op: ir.Operation):
    """count_leading_zeros of 8- and 16-bit integers on 32 bits, of 64-bit ones on halves."""
    x = op.operands[0]
    element = element_of(x)
    if not isinstance(element, ir.IntegerType) or element.width not in (8, 16, 64):
        return None
    u32 = ir.IntegerType.get_unsigned(32)
    bits = Num(x).bitcast(ir.IntegerType.get_unsigned(element.width))
    if element.width < 32:      # zero-extended to 32 bits, which adds 32 - N leading zeros
        count = Num(stablehlo.count_leading_zeros(bits.to(u32).value)) - (32 - element.width)
        return [count.to(ir.IntegerType.get_unsigned(element.width)).bitcast(element).value]
    high = shift_right_logical(bits, 32).to(u32)
    low = (bits & 0xFFFFFFFF).to(u32)
    count_high = Num(stablehlo.count_leading_zeros(high.value))
    count_low = Num(stablehlo.count_leading_zeros(low.value))
    count = select(high.eq(0), count_low + 32, count_high)
    return [count.to(element).value]


def unsigned_quotient(op: ir.Operation):
    """Unsigned divide and remainder: 8 and 16 bits in i32, 32 bits in i64 (zero-extended,
    signed division is exact there), 64 bits by halving the dividend (below)."""
    a, b = (Num(v) for v in op.operands)
    element = a.element
    if not isinstance(element, ir.IntegerType) or not element.is_unsigned:
        return None
    divide = op.name == "stablehlo.divide"
    power = _power_of_two(b.value)
    if power is not None and power < element.width:     # jax's binary search: (lo + hi) // 2
        return [(shift_right_logical(a, power) if divide else a & ((1 << power) - 1)).value]
    if element.width < 64:
        wide = "i32" if element.width < 32 else "i64"
        a, b = a.to(wide), b.to(wide)
        out = a / b if divide else a % b
        return [out.to(element).value]
    quotient, remainder = _divide_u64(a, b)
    return [(quotient if divide else remainder).value]


def _power_of_two(value: ir.Value) -> int | None:
    """k when `value` is the constant 2^k everywhere (a splat, or a broadcast or an integer
    convert of one: jax writes 2 as convert(2 : i32) : ui32)."""
    while isinstance(value, ir.OpResult) and (
            value.owner.name == "stablehlo.broadcast_in_dim"
            or value.owner.name == "stablehlo.convert"
            and isinstance(element_of(value.owner.operands[0]), ir.IntegerType)):
        value = value.owner.operands[0]
    values = constant_values(value)
    if values is None or values.size == 0 or not (values == values.flat[0]).all():
        return None
    v = int(values.flat[0])
    return v.bit_length() - 1 if v > 0 and v & (v - 1) == 0 else None


def _divide_u64(a: Num, b: Num) -> tuple[Num, Num]:
    """(a / b, a % b) for ui64 in signed i64 division: q = 2 ((a >> 1) / b), corrected by one
    when a - q b >= b; a divisor of 2^63 or more goes into a once or not at all."""
    i64 = ir.IntegerType.get_signless(64)
    big = b >= (1 << 63)
    divisor = select(big, b.like(1), b).bitcast(i64)      # below 2^63: positive
    half = shift_right_logical(a, 1).bitcast(i64)
    q = Num(stablehlo.shift_left((half / divisor).value, half.like(1).value)).bitcast(a.element)
    r = a - q * b
    over = r >= b
    q, r = select(over, q + 1, q), select(over, r - b, r)
    once = a >= b
    q_big = select(once, a.like(1), a.like(0))
    return select(big, q_big, q), select(big, select(once, a - b, a), r)


def signed_remainder(op: ir.Operation):
    """A signed remainder of the most negative dividend -2^N, taken of -2^N + |divisor| (the
    same remainder; for divisor -2^N the dividend wraps to 0, whose remainder is right)."""
    lhs, rhs = (Num(v) for v in op.operands)
    element = lhs.element
    if (CANONICAL in op.attributes or not isinstance(element, ir.IntegerType)
            or element.is_unsigned or element.width == 1):
        return None
    most_negative = lhs.like(-(1 << (element.width - 1)))
    dividend = select(lhs.eq(most_negative), lhs + abs(rhs), lhs)
    remainder = stablehlo.remainder(dividend.value, rhs.value)
    remainder.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [remainder]


def float_remainder(op: ir.Operation):
    """A float remainder below f64 as the exact f64 fmod (shlo-expand-f64-math's, unrolled)."""
    x, y = (Num(v) for v in op.operands)
    if not is_float(x.element) or float_info(x.element).bits > 32:
        return None
    from ...numerics import f64_math         # (imported when used: it builds on lib.expr)
    return [f64_math.fmod_narrow(x.to("f64"), y.to("f64")).to(x.element).value]



NEGATED_DIVISOR = "shlo.negated_divisor"     # a divide/remainder already rewritten below


def negated_divisor(op: ir.Operation):
    """A signed integer divide or remainder by the negated divisor, so that IREE cannot prove
    both operands non-negative and make it unsigned (its spirv.UDiv/UMod of a vector<1> fail
    to convert): x % b = x % -b for every b; x / c = -(x / -c) for a constant c > 0, and
    for other divisors with b = 0 (-1) and MIN / MIN (1) selected apart."""
    if NEGATED_DIVISOR in op.attributes:
        return None
    x, b = (Num(v) for v in op.operands)
    element = x.element
    if not isinstance(element, ir.IntegerType) or element.is_unsigned or element.width == 1:
        return None
    divisor = _constant_divisor(b.value)
    if divisor is not None and divisor.size and (divisor < 0).all():
        return None                                   # already negative: stays signed
    if op.name == "stablehlo.remainder":
        out = stablehlo.remainder(x.value, (-b).value)
        for name in (CANONICAL, NEGATED_DIVISOR):     # (keeps vk-signed-remainder-min's form)
            out.owner.attributes[name] = ir.UnitAttr.get()
        return [out]
    quotient = stablehlo.divide(x.value, (-b).value)
    quotient.owner.attributes[NEGATED_DIVISOR] = ir.UnitAttr.get()
    q = -Num(quotient)
    if divisor is not None and divisor.size and (divisor > 0).all():
        return [q.value]
    most_negative = -(1 << (element.width - 1))
    q = select(b.eq(0), x.like(-1), q)
    q = select(Num(stablehlo.and_(x.eq(most_negative).value, b.eq(most_negative).value)),
               x.like(1), q)
    return [q.value]


def _constant_divisor(value: ir.Value):
    """The values of a constant divisor (through broadcasts), or None."""
    while isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.broadcast_in_dim":
        value = value.owner.operands[0]
    return constant_values(value)
