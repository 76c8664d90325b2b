"""shlo-saturate-float-to-int: a convert of floats to integers saturates, as XLA's does: NaN
gives 0, a value at or past the type's bounds its MIN or MAX (unsigned: negative values 0),
the others are truncated toward zero.

The spec leaves out-of-range conversions open; IREE 3.13 wraps or gives INT_MIN, on CPU and
Vulkan (f32 300.0 to uint8 44, -1.0 to uint8 255, inf to int8 0, NaN to int32 INT_MIN; XLA
gives 255, 0, 127 and 0; docs/iree_gaps.md#shlo-saturate-float-to-int), so jax programs such
as `(image * 255).astype(jnp.uint8)` disagreed with XLA wherever a value fell outside. The
input is clamped to the largest floats inside the range, so the convert itself never sees a
value out of range, and the values at or past each bound are selected.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import defined_by, is_splat_constant, nested_ops
from ..lib.expr import Num, const, element_of, float_info, is_float, select, with_element
from ..op_rules import CANONICAL, RulesPass, apply_rules


def _below(bound: float, mantissa_bits: int) -> float:
    """The largest float of `mantissa_bits` explicit fraction bits below the power of two
    `bound`."""
    return bound - bound * 2.0 ** -(mantissa_bits + 1)


def _splat(value: ir.Value) -> float | None:
    """The number of a float splat constant, else None."""
    op = defined_by(value, "stablehlo.constant")
    if op is None or not is_splat_constant(op):
        return None
    return ir.FloatAttr(ir.DenseElementsAttr(op.attributes["value"]).get_splat_value()).value


def _inside(x: ir.Value, bottom: float, top: float) -> bool:
    """Whether `x` is this pass's `select(x != x, 0, clamp(bottom, x, top))` (it ran before)."""
    chosen = defined_by(x, "stablehlo.select")
    clamp = None if chosen is None else defined_by(chosen.operands[2], "stablehlo.clamp")
    return chosen is not None and clamp is not None and all(
        _splat(bound) == value for bound, value in
        ((clamp.operands[0], bottom), (clamp.operands[2], top), (chosen.operands[1], 0.0)))


def saturate(op: ir.Operation):
    """convert(x) of floats to integers as a saturating convert; else None."""
    x, target = op.operands[0], element_of(op.results[0]).maybe_downcast()
    if CANONICAL in op.attributes or not is_float(element_of(x)) or \
            not isinstance(target, ir.IntegerType) or target.width == 1:
        return None
    info = float_info(element_of(x))
    width, signed = target.width, not target.is_unsigned
    low, high = (-2 ** (width - 1), 2 ** (width - 1)) if signed else (0, 2 ** width)
    # `high`, the first value past the range, is a power of two: a float unless too large
    high_float = float(high) if high <= info.max else math.inf
    top = _below(high_float, info.mantissa_bits) if high <= info.max else info.max
    bottom = float(low) if -low <= info.max else -info.max
    if _inside(x, bottom, top):
        return None
    v = Num(x)
    clamped = stablehlo.clamp(const(bottom, x), x, const(top, x))
    inside = select(v.ne(v), 0.0, Num(clamped))
    converted = stablehlo.convert(inside.value, result_type=with_element(x.type, target))
    converted.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    result = Num(converted)
    if high_float < math.inf or info.has_inf:
        result = select(v >= high_float, const(high - 1, converted), result)
    if bottom != low and info.has_inf:      # -inf, where the type cannot hold the bound
        result = select(v < bottom, const(low, converted), result)
    return [result.value]


@dataclasses.dataclass
class SaturateFloatToInt(RulesPass):
    """Convert floats to integers saturating, as XLA does (NaN to 0, out of range to the
    nearest bound)."""

    NAME = "shlo-saturate-float-to-int"
    RULES = {"stablehlo.convert": saturate}

    def run(self, op: ir.Operation) -> None:
        apply_rules(op, self.RULES, self.NAME)
        for converted in nested_ops(op, "stablehlo.convert"):
            if CANONICAL in converted.attributes:
                del converted.attributes[CANONICAL]
