"""shlo-expand-integer-rng: stablehlo.rng UNIFORM over integers as a float rng, scaled; UNIFORM
over floats kept below b (narrower than f32: an f32 UNIFORM, rounded); NORMAL over floats other
than f32 as an f32 NORMAL, scaled.

IREE compiles stablehlo.rng only for floats (docs/iree_gaps.md#shlo-expand-integer-rng). The
rewrite draws u, uniform in [0, 1), with a float stablehlo.rng of the same shape: f64 for
64-bit integers, f32 for the narrower ones (IREE compiles both). In the unsigned type U of the
element's width, where the wrapping arithmetic is exact:

    span = U(b) - U(a)                        (b - a, exact even when it overflows the type)
    offset = min(U(floor(u * float(span))), span - 1)
    result = a + offset                       (wrapping back into the element type)

so every value lies in [a, b). The values are uniform to within the float's resolution: u
takes 2^24 (f32) or 2^53 (f64) values, so a range wider than that is covered on a grid, and
float(span) may round. When b <= a the spec leaves the result implementation-defined; it is
`a`. A boolean rng is [false, true) at most, i.e. `a`. NORMAL needs float a and b (the
verifier rejects it for integers, spec C2), so only UNIFORM reaches the integer rule.

IREE compiles a NORMAL rng only for f32 (f16, bf16 and f64 fail, also without shlo's passes).
Those draw z from an f32 NORMAL(0, 1) and return mu + sigma * z computed
in the element type (its numbers are implementation-defined; the f64 ones have f32's
resolution).

IREE's UNIFORM rng of f16 and bf16 returned b (bf16: 524 of 262144 values of [-100, 900)) or
NaN (f16: nearly all), also without shlo's passes (docs/iree_gaps.md#shlo-expand-integer-rng).
Floats narrower than f32 draw an f32 UNIFORM over [a, b), rounded to the element type (never
below a, which the type holds); a value that rounded up to b becomes the largest value below
b. IREE's f32 UNIFORM gives b too (f32 [-100, -99.5): 2 of 262144, as XLA's CPU), so f32 and
f64 ones are kept below b alike.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib import builders as extras
from ..op_rules import CANONICAL, RulesPass
from ..lib.expr import Num, element_of, floor, is_float, minimum, select, with_element


def _spread(scalar: ir.Value, shape: ir.Value, result_type: ir.RankedTensorType) -> Num:
    """A 0-d tensor broadcast to the rng's result shape (its `shape` operand when dynamic)."""
    t = with_element(result_type, element_of(scalar))
    if t.has_static_shape:
        return Num(stablehlo.broadcast_in_dim(scalar, broadcast_dimensions=[], result_type=t))
    return Num(extras.dynamic_broadcast_in_dim(scalar, shape, [], t))


def _as(x: Num, element: ir.Type) -> Num:
    """x's bits as another integer type of the same width."""
    return x if x.element == element else x.bitcast(element)


def integer_rng(op: ir.Operation) -> list[ir.Value] | None:
    a, b, shape = op.operands
    element = element_of(a)
    if is_float(element) and "NORMAL" in str(op.attributes["rng_distribution"]):
        return _normal(op)
    if is_float(element) and (_narrow_signed_float(element)
                              or isinstance(element, (ir.F32Type, ir.F64Type))):
        return _uniform_below_b(op)
    if is_float(element) or "UNIFORM" not in str(op.attributes["rng_distribution"]):
        return None
    result_type = ir.RankedTensorType(op.results[0].type)
    width = ir.IntegerType(element).width
    if width == 1:
        return [_spread(a, shape, result_type).value]
    unsigned = ir.IntegerType.get_unsigned(width)
    work = ir.F64Type.get() if width > 32 else ir.F32Type.get()
    scalar = ir.RankedTensorType.get([], work)
    u = stablehlo.rng(stablehlo.constant(0.0, result_type=scalar),
                      stablehlo.constant(1.0, result_type=scalar), shape,
                      rng_distribution="UNIFORM", result_type=with_element(result_type, work))
    u.owner.attributes[CANONICAL] = ir.UnitAttr.get()       # (a u of 1 is caught below)
    a_n, b_n = _spread(a, shape, result_type), _spread(b, shape, result_type)
    start = _as(a_n, unsigned)
    span = _as(b_n, unsigned) - start
    offset = minimum(floor(Num(u) * span.to(work)).to(unsigned), span - 1)
    drawn = _as(start + offset, element)
    return [select(b_n > a_n, drawn, a_n).value]


def _narrow_signed_float(element: ir.Type) -> bool:
    """A float narrower than f32 whose bits are sign and magnitude (not f8E8M0FNU)."""
    width = element.width if hasattr(element, "width") else 32
    return width < 32 and "E8M0" not in str(element)


def _uniform_below_b(op: ir.Operation) -> list[ir.Value] | None:
    """A float UNIFORM rng kept below b: f16, bf16 and 8-bit floats drawn in f32 and rounded,
    f32 and f64 drawn as they are (the rng marked canonical, left alone after); a value at b
    (rounded up to it, or IREE's own) replaced by the largest one below b."""
    if CANONICAL in op.attributes:
        return None
    a, b, shape = op.operands
    element = element_of(a)
    result_type = ir.RankedTensorType(op.results[0].type)
    work = element if isinstance(element, (ir.F32Type, ir.F64Type)) else ir.F32Type.get()
    same = work == element
    raw = stablehlo.rng(a if same else Num(a).to(work).value, b if same else Num(b).to(work).value,
                        shape, rng_distribution="UNIFORM",
                        result_type=with_element(result_type, work))
    raw.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    drawn = Num(raw) if same else Num(raw).to(element)
    bits = ir.IntegerType.get_signless(element.width)
    b_bits = Num(b).bitcast(bits)
    negative_tiny = b_bits.like(1 - (1 << (element.width - 1)))    # sign bit and 1: -tiny
    below = select(Num(b).eq(Num(b).like(0)), negative_tiny,
                   select(Num(b) > Num(b).like(0), b_bits - 1, b_bits + 1)).bitcast(element)
    below_n, b_n = _spread(below.value, shape, result_type), _spread(b, shape, result_type)
    return [select(drawn < b_n, drawn, below_n).value]


def _normal(op: ir.Operation) -> list[ir.Value] | None:
    """A NORMAL rng of a float type other than f32 as mu + sigma * (an f32 NORMAL(0, 1))."""
    mu, sigma, shape = op.operands
    element = element_of(mu)
    if isinstance(element, ir.F32Type):
        return None
    result_type = ir.RankedTensorType(op.results[0].type)
    f32 = ir.F32Type.get()
    scalar = ir.RankedTensorType.get([], f32)
    z = Num(stablehlo.rng(stablehlo.constant(0.0, result_type=scalar),
                          stablehlo.constant(1.0, result_type=scalar), shape,
                          rng_distribution="NORMAL", result_type=with_element(result_type, f32)))
    return [(_spread(mu, shape, result_type) + _spread(sigma, shape, result_type)
             * z.to(element)).value]


RULES = {"stablehlo.rng": integer_rng}


@dataclasses.dataclass
class ExpandIntegerRng(RulesPass):
    """Rewrite stablehlo.rng UNIFORM over integer types into a float rng scaled to [a, b),
    UNIFORM over floats into one kept below b (narrower than f32: a rounded f32 one), and NORMAL
    over floats other than f32 into a scaled f32 NORMAL."""

    NAME = "shlo-expand-integer-rng"
    RULES = RULES
