"""Runtime shape checks that IREE honours: a predicate computed in StableHLO, then
`tensor.extract` + `cf.assert` with a message that names the op, its location and its types.

IREE drops `stablehlo.custom_call @shape_assertion` silently
(docs/iree_gaps.md#passesshapesshape_checks); `cf.assert` becomes a VM failure that the call reports, and shlo's
runtime turns a failure whose message starts with `MARKER` into an `InvocationError`.
A predicate known at compile time emits nothing when true and is an error when false.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import DYN
from shlo.errors import PassError, location_text
from ..lib import builders as extras
from .refine_fold import evaluate

MARKER = "shape check failed"
I64 = "i64"


def _scalar(element: str = I64) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([], ir.Type.parse(element))


def dimension_size(value: ir.Value, dim: int) -> ir.Value:
    """The size of one dimension as tensor<i64> (a constant when it is static)."""
    size = ir.RankedTensorType(value.type).shape[dim]
    if size != DYN:
        return stablehlo.constant(np.array(size, np.int64))
    return stablehlo.convert(extras.get_dimension_size(value, dim), result_type=_scalar())


def all_of(predicates: Sequence[ir.Value]) -> ir.Value | None:
    """The conjunction of i1 scalars (None for none)."""
    out = None
    for p in predicates:
        out = p if out is None else stablehlo.and_(out, p)
    return out


def equal(a: ir.Value, b: ir.Value) -> ir.Value:
    return stablehlo.compare(a, b, comparison_direction="EQ")


def equal_or_one(a: ir.Value, b: ir.Value) -> ir.Value:
    """a == b or a == 1 or b == 1: two sizes that broadcast (numpy's rule)."""
    one = stablehlo.constant(np.array(1, np.int64))
    return stablehlo.or_(stablehlo.or_(equal(a, b), equal(a, one)), equal(b, one))


def describe(op: ir.Operation) -> str:
    """`stablehlo.add at f.mlir:3:8` (the op and where it is)."""
    where = location_text(op.location)
    return f"{op.name} at {where}" if where else op.name


def assert_true(predicate: ir.Value | None, message: str, op: ir.Operation) -> None:
    """Emit a runtime check of the i1 scalar `predicate` before the insertion point."""
    if predicate is None:
        return
    known = evaluate(predicate)
    if known is not None:
        if bool(known.all()):
            return
        raise PassError(f"{message} (known at compile time)", at=op)
    flag = ir.Operation.create("tensor.extract", results=[ir.IntegerType.get_signless(1)],
                               operands=[predicate]).result
    ir.Operation.create("cf.assert", operands=[flag],
                        attributes={"msg": ir.StringAttr.get(f"{MARKER}: {message}")})
