"""shlo-barrier-scalar-constant-expressions: an op whose operands are all constants and whose
results have at most one element each reads copies of its constants through an
optimization_barrier.

IREE groups such scalars into one dispatch of several results, hoists it into a module
initializer and then gives every global the dispatch's first result (a clone of a dispatch
that reads no buffer takes result 0): `z.sum(), z.prod()` of complex64 on vulkan started
the product from (0, 0), silently; scalars of other sizes failed to compile or to run (fuzz
seed 117 program 325; docs/iree_gaps.md#shlo-barrier-scalar-constant-expressions). Read
through a barrier, a scalar is no constant expression to IREE and is computed where it is
used, by a dispatch that reads a buffer.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras

CONSTANT = "stablehlo.constant"
BARRIER = "stablehlo.optimization_barrier"


def _is_scalar(t: ir.Type) -> bool:
    """Whether `t` is a static tensor of at most one element (IREE's scalar dispatch limit)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
        all(d <= 1 for d in t.shape)


def _constant_expression(op: ir.Operation) -> bool:
    """Whether `op` computes scalars from constants alone."""
    return op.name not in (CONSTANT, BARRIER) and len(op.operands) > 0 and \
        len(op.results) > 0 and len(op.regions) == 0 and \
        all(isinstance(v, ir.OpResult) and v.owner.name == CONSTANT for v in op.operands) and \
        all(_is_scalar(r.type) for r in op.results)


@dataclasses.dataclass
class BarrierScalarConstantExpressions(Pass):
    """Read the constants of scalar ops computed from constants alone through barriers."""

    NAME = "shlo-barrier-scalar-constant-expressions"

    def run(self, op: ir.Operation) -> None:
        for expression in [o.operation for o in nested_ops(op)
                           if _constant_expression(o.operation)]:
            with ir.InsertionPoint(expression), expression.location:
                copies = [v.owner.operation.clone().results[0] for v in expression.operands]
                fenced = extras.optimization_barrier(copies)
            for i, value in enumerate(fenced):
                expression.operands[i] = value
