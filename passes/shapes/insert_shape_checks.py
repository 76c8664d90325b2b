"""shlo-insert-shape-checks: a runtime check before each StableHLO op whose shapes are only
known at run time and must fit: dynamic_broadcast_in_dim (operand sizes 1 or the output's),
dynamic_reshape (same element count) and the elementwise ops (equal sizes).

IREE assumes the shapes fit: without the check a mismatch computes wrong values. (CHLO's
broadcasting ops get theirs from shlo-legalize-chlo, as shape.cstr_broadcastable, which
shlo-legalize-shape turns into the same kind of check.) A check fails the call with a message naming the op, its location and its types
(`shape_checks`); dimensions that are static on both sides are checked at compile time by the
verifier and shape refinement, and cost nothing here.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import DYN
from ..base import Pass, nested_ops
from .shape_checks import all_of, assert_true, describe, dimension_size, equal

_I64 = np.int64


def _shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def _types(op: ir.Operation) -> str:
    return ", ".join(str(v.type) for v in op.operands)


def _pairs(column):
    """(value, dim) pairs of one result dimension, two by two, skipping static-static pairs."""
    for i, (a, da) in enumerate(column):
        for b, db in column[i + 1:]:
            if _shape(a)[da] == DYN or _shape(b)[db] == DYN:
                yield (a, da), (b, db)


def _elementwise(op):
    tensors = [v for v in op.operands
               if isinstance(v.type.maybe_downcast(), ir.RankedTensorType) and _shape(v)]
    ranks = {len(_shape(v)) for v in tensors}
    if len(ranks) != 1:
        return None, ""
    columns = [[(v, d) for v in tensors] for d in range(ranks.pop())]
    checks = [equal(dimension_size(a, da), dimension_size(b, db))
              for column in columns for (a, da), (b, db) in _pairs(column)]
    return all_of(checks), f"operand shapes {_types(op)} differ"


def _output_size(shape_operand: ir.Value, d: int) -> ir.Value:
    one = stablehlo.slice(shape_operand, start_indices=[d], limit_indices=[d + 1])
    element = ir.RankedTensorType(shape_operand.type).element_type
    scalar = stablehlo.reshape(one, result_type=ir.RankedTensorType.get([], element))
    return stablehlo.convert(scalar, result_type=ir.RankedTensorType.get(
        [], ir.IntegerType.get_signless(64)))


def _dynamic_broadcast_in_dim(op):
    operand, output = op.operands[0], op.operands[1]
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"])]
    result = _shape(op.results[0])
    checks = []
    for k, d in enumerate(dims):
        size = _shape(operand)[k]
        if size == 1 or (size != DYN and result[d] != DYN):
            continue
        here = dimension_size(operand, k)
        one = stablehlo.constant(np.array(1, _I64))
        checks.append(stablehlo.or_(equal(here, one), equal(here, _output_size(output, d))))
    return all_of(checks), (f"operand {operand.type} does not broadcast to the output shape "
                            f"(each size must be 1 or the output's)")


def _dynamic_reshape(op):
    operand, shape = op.operands[0], op.operands[1]
    if ir.RankedTensorType(operand.type).has_static_shape and \
            ir.RankedTensorType(op.results[0].type).has_static_shape:
        return None, ""
    have = stablehlo.constant(np.array(1, _I64))
    for d in range(len(_shape(operand))):
        have = stablehlo.multiply(have, dimension_size(operand, d))
    want = stablehlo.constant(np.array(1, _I64))
    for d in range(_shape(shape)[0]):
        want = stablehlo.multiply(want, _output_size(shape, d))
    return equal(have, want), (f"operand {operand.type} and the output shape have different "
                               f"element counts")


_ELEMENTWISE = ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum",
                "power", "and", "or", "xor", "atan2", "compare", "select", "complex",
                "shift_left", "shift_right_arithmetic", "shift_right_logical")

RULES = {
    **{f"stablehlo.{name}": _elementwise for name in _ELEMENTWISE},
    "stablehlo.dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim,
    "stablehlo.dynamic_reshape": _dynamic_reshape,
}


def dynamic(op: ir.Operation) -> bool:
    return any(isinstance(t, ir.RankedTensorType) and not t.has_static_shape
               for t in (v.type.maybe_downcast() for v in list(op.operands) + list(op.results)))


@dataclasses.dataclass
class InsertShapeChecks(Pass):
    """Check at run time that dynamic StableHLO shapes fit (broadcasts, reshapes, elementwise)."""

    NAME = "shlo-insert-shape-checks"

    def run(self, op: ir.Operation) -> None:
        targets = [o for o in nested_ops(op) if o.name in RULES and dynamic(o)]
        if not targets:
            return
        with op.context:
            for target in targets:
                with ir.InsertionPoint(target), target.location:
                    predicate, what = RULES[target.name](target)
                    assert_true(predicate, f"{describe(target)}: {what}", target)
