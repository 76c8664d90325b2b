"""shlo-fold-dynamic-self-ops: fold an integer op of a value with itself on a dynamic shape.

IREE's StableHLO input folder turns `compare %x, %x` of integers or booleans (every
direction) and integer `subtract %x, %x` into a constant of the result's type, and then rejects
that constant when the type is dynamic (docs/iree_gaps.md#shlo-fold-dynamic-self-ops).
Such ops appear in user programs and after CSE merges two equal values (chlo.next_after
of a value with itself, for one). This pass folds them first, into the constant they are
(true for EQ/LE/GE, false for NE/LT/GT, 0 for subtract) broadcast to the operand's runtime shape.
Float comparisons are left alone (x == x is false for NaN), and so are TOTALORDER ones, which
IREE does not fold. It runs last in the default pipeline, after cse.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from ..lib import builders as extras
from ..base import Pass, nested_ops
from ..op_rules import apply_rules

SELF_COMPARISON = {"EQ": True, "LE": True, "GE": True, "NE": False, "LT": False, "GT": False}


def _folds(op: ir.Operation) -> bool:
    """A dynamically shaped op of integers or booleans whose two operands are one value."""
    lhs, rhs = op.operands[0], op.operands[1]
    operand = ir.RankedTensorType(lhs.type)
    return (lhs == rhs and not ir.RankedTensorType(op.results[0].type).has_static_shape
            and isinstance(operand.element_type, ir.IntegerType))


def _broadcast(value, op: ir.Operation) -> list[ir.Value]:
    """`value` of the result's element type, broadcast to the operand's runtime shape."""
    result = ir.RankedTensorType(op.results[0].type)
    scalar = stablehlo.constant(value, result_type=ir.RankedTensorType.get([], result.element_type))
    return [extras.dynamic_broadcast_in_dim(scalar, extras.shape_of(op.operands[0]), [], result)]


def _compare(op):
    if not _folds(op):
        return None
    return _broadcast(SELF_COMPARISON[enum_name(op.attributes["comparison_direction"])], op)


def _subtract(op):
    return _broadcast(0, op) if _folds(op) else None


RULES = {"stablehlo.compare": _compare, "stablehlo.subtract": _subtract}


@dataclasses.dataclass
class FoldDynamicSelfOps(Pass):
    """Fold integer x - x and integer comparisons of x with x on dynamic shapes to broadcasts."""

    NAME = "shlo-fold-dynamic-self-ops"

    def run(self, op: ir.Operation) -> None:
        if any(o.name in RULES and _folds(o) for o in nested_ops(op, "stablehlo.")):
            apply_rules(op, RULES, self.NAME)
