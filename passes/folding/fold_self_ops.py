"""shlo-fold-self-ops: fold an integer op of a value with itself into the constant it is.

IREE's StableHLO input folder and arith's folders turn integer `subtract %x, %x`, `xor %x, %x`
and `compare %x, %x` of integers or booleans (every direction) into constants after shlo's
pipeline has run:

- on a dynamic shape IREE then rejects the constant ("'stablehlo.constant' op result #0 must
  be statically shaped"); here it is the constant broadcast to the operand's run-time shape;
- on a static shape what shlo built from the value becomes a constant expression only in
  IREE, which hoists it into a module initializer: `pad(x, convert(x - x)[0])` of i32 to bf16
  failed to compile ("failed to legalize operation 'util.initializer'": shlo's f64 rounding of
  the convert, hoisted, loaded its bf16 scalar on the host; fuzz seed 165 program 470). Folded
  before shlo's expansions, the constant is one shlo folds itself.

Folded: x - x and x ^ x to 0 (false for booleans); EQ, LE, GE to true and NE, LT, GT to false.
Floats are left alone (x - x is NaN for inf, x == x false for NaN). The default pipeline runs
the pass before shlo's expansions and again last, after cse, which can make two operands one.
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
    """An op of integers or booleans whose two operands are one value."""
    lhs, rhs = op.operands[0], op.operands[1]
    return lhs == rhs and isinstance(ir.RankedTensorType(lhs.type).element_type, ir.IntegerType)


def _constant(value, op: ir.Operation) -> list[ir.Value]:
    """`value` of the result's element type, in the result's shape (broadcast to the operand's
    run-time shape where it is dynamic)."""
    result = ir.RankedTensorType(op.results[0].type)
    if result.has_static_shape:
        return [stablehlo.constant(value, result_type=result)]
    scalar = stablehlo.constant(value, result_type=ir.RankedTensorType.get([], result.element_type))
    return [extras.dynamic_broadcast_in_dim(scalar, extras.shape_of(op.operands[0]), [], result)]


def _compare(op):
    direction = enum_name(op.attributes["comparison_direction"])
    return _constant(SELF_COMPARISON[direction], op) if _folds(op) else None


def _zero(op):
    return _constant(0, op) if _folds(op) else None


RULES = {"stablehlo.compare": _compare, "stablehlo.subtract": _zero, "stablehlo.xor": _zero}


@dataclasses.dataclass
class FoldSelfOps(Pass):
    """Fold integer x - x, x ^ x and comparisons of x with x into constants."""

    NAME = "shlo-fold-self-ops"

    def run(self, op: ir.Operation) -> None:
        if any(o.name in RULES and _folds(o) for o in nested_ops(op, "stablehlo.")):
            apply_rules(op, RULES, self.NAME)
