"""shlo-legalize-e8m0: f8E8M0FNU arithmetic and conversions with the spec's rounding.

f8E8M0FNU (the MX scale type) holds only powers of two, 2^-127 .. 2^127 as biased exponents
0 .. 254, and NaN (255); no zero, no sign. IREE converts to it wrongly, and on Vulkan also
from it (docs/iree_gaps.md#shlo-legalize-e8m0): a silently wrong result wherever a model
computes with MX scales.

This pass does both conversions on the bits, with the interpreter's (APFloat's) rounding:

* to f8E8M0FNU from a float with exponent field E and mantissa m: E - bias + 127, one more
  when m is at least half (ties go up: with no mantissa bits every value is odd), clamped
  below to 2^-127 (the values under 1.5 * 2^-127 and +-0 give 2^-127); NaN, infinities,
  negative values and those that round past 2^127 give NaN. Integers go through f64, f16 and
  bf16 through f32 (both exact);
* from f8E8M0FNU: the f32 with exponent field e (2^-127 is the subnormal 0x00400000, 255 is
  NaN), converted on to the result type.

Every other op that reads or makes f8E8M0FNU values computes in f32 between those two
conversions (an op's own rounding then happens once, in the conversion back). Ops that only
move values (reshape, transpose, slice, select, gather, ...) and ops with regions keep the
type; the ops inside their regions are rewritten like any other.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib.expr import Num, attributes, select, shift_left, shift_right_logical, with_element
from .round_narrow_float_converts import FLOAT_LAYOUTS

E8M0 = "f8E8M0FNU"
# ops that only move, pick or reinterpret values: they keep f8E8M0FNU as it is
_MOVES = frozenset(f"stablehlo.{n}" for n in (
    "reshape", "dynamic_reshape", "broadcast_in_dim", "dynamic_broadcast_in_dim", "transpose",
    "slice", "dynamic_slice", "dynamic_update_slice", "concatenate", "pad", "dynamic_pad",
    "reverse", "select", "gather", "dynamic_gather", "bitcast_convert", "constant",
    "optimization_barrier", "tuple", "get_tuple_element", "get_dimension_size",
    "all_gather", "all_to_all", "collective_permute", "collective_broadcast", "send", "recv",
    "infeed", "outfeed", "custom_call", "real_dynamic_slice", "set_dimension_size", "return"))


def _is_e8m0(t: ir.Type) -> bool:
    shaped = t.maybe_downcast()
    return isinstance(shaped, ir.ShapedType) and str(shaped.element_type) == E8M0


def to_e8m0(x: Num) -> Num:
    """x (any float or integer tensor) rounded to f8E8M0FNU."""
    name = str(x.element)
    if name not in FLOAT_LAYOUTS:
        x = x.to("f64" if isinstance(x.element, ir.IntegerType) else "f32")
        name = str(x.element)
    width, mantissa_bits, bias = FLOAT_LAYOUTS[name]
    exponent_ones = (1 << (width - 1 - mantissa_bits)) - 1
    bits = x.bitcast(f"i{width}")
    biased = shift_right_logical(bits, mantissa_bits) & exponent_ones
    mantissa = bits & ((1 << mantissa_bits) - 1)
    # the exponent, one more from half a binade up (ties go up), at least 2^-127
    up = select(mantissa >= 1 << (mantissa_bits - 1), bits.like(1), bits.like(0))
    exponent = (biased - (bias - 127) if bias != 127 else biased) + up
    exponent = select(exponent < 0, bits.like(0), exponent)
    if width == 32:
        # a subnormal f32 (below 2^-126) is m * 2^-149: 2^-126 from 1.5 * 2^-127 up, else 2^-127
        # (read from the bits: IREE may flush subnormal floats to zero, never integers)
        tiny = select(mantissa >= 3 << (mantissa_bits - 2), bits.like(1), bits.like(0))
        exponent = select(biased.eq(0), tiny, exponent)
    negative = (bits < 0) & (bits & ((1 << (width - 1)) - 1)).ne(0)       # -0 is +0
    nan = negative | biased.eq(exponent_ones) | (exponent > 254)
    return select(nan, bits.like(255), exponent).to("ui8").bitcast(E8M0)


def from_e8m0(x: Num, element: ir.Type) -> Num:
    """f8E8M0FNU values as `element` (through the exact f32)."""
    e = x.bitcast("ui8").to("ui32")
    bits = shift_left(e, 23)
    bits = select(e.eq(0), e.like(0x00400000), select(e.eq(255), e.like(0x7FC00000), bits))
    return bits.bitcast("f32").to(element)


def _rewrite(op: ir.Operation) -> None:
    with ir.InsertionPoint(op), op.location:
        if op.name == "stablehlo.convert":
            x = Num(op.operands[0])
            target = ir.RankedTensorType(op.results[0].type).element_type
            if str(x.element) == E8M0 and str(target) == E8M0:
                new = x
            elif str(x.element) == E8M0:
                new = from_e8m0(x, target)
            else:
                new = to_e8m0(x)
            op.results[0].replace_all_uses_with(new.value)
            op.erase()
            return
        f32 = ir.F32Type.get()
        operands = [from_e8m0(Num(v), f32).value if _is_e8m0(v.type) else v for v in op.operands]
        results = [with_element(r.type, f32) if _is_e8m0(r.type) else r.type for r in op.results]
        wide = ir.Operation.create(op.name, results=results, operands=operands,
                                   attributes=attributes(op))
        narrowed = [to_e8m0(Num(w)).value if _is_e8m0(r.type) else w
                    for r, w in zip(op.results, wide.results)]
    for r, n in zip(op.results, narrowed):
        r.replace_all_uses_with(n)
    op.erase()


def _needs_rewrite(op: ir.Operation) -> bool:
    if not op.name.startswith(("stablehlo.", "chlo.")) or op.name in _MOVES or op.regions:
        return False
    return any(_is_e8m0(v.type) for v in [*op.operands, *op.results])


@dataclasses.dataclass
class LegalizeE8M0(Pass):
    """Compute f8E8M0FNU ops in f32 with exact, spec-rounded conversions on the bits."""

    NAME = "shlo-legalize-e8m0"

    def run(self, op: ir.Operation) -> None:
        for target in [o for o in nested_ops(op) if _needs_rewrite(o)]:
            _rewrite(target)
