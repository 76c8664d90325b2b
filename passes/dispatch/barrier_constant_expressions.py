"""shlo-barrier-constant-expressions: complex scalars computed from constants alone read their
constants through `stablehlo.optimization_barrier`s.

- A complex scalar op (results of at most one element) whose operands are all constants
  reads copies of its constants through a barrier. IREE grouped such scalars into one
  dispatch of several results, hoisted it into a module initializer and gave every global
  the first result: `z.sum(), z.prod()` of complex64 on vulkan started the product from
  (0, 0), silently; scalars of other sizes failed to compile or to run (fuzz seed 117
  program 325). Real scalars IREE folds (fencing or folding them here broke other programs).

IREE clones a dispatch that reads no buffer where it needs a copy of its result, and the
clones come out wrong (docs/iree_gaps.md#shlo-barrier-constant-expressions). Through a
barrier, a scalar is no constant expression to IREE and its dispatch reads a buffer. (Values
of constants updated in place go wrong too; fencing them made IREE scatter into hoisted
globals, so they are left open there.)
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops, on_constants
from ..lib import builders as extras
from ..lib.expr import element_of, is_complex

BARRIER = "stablehlo.optimization_barrier"


def _is_scalar(t: ir.Type) -> bool:
    """Whether `t` is a static tensor of at most one element (IREE's scalar dispatch limit)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
        all(d <= 1 for d in t.shape)


def _scalar_of_constants(op: ir.Operation) -> bool:
    """Whether `op`, a StableHLO op (`on_constants`: not a fusion barrier, an optimization
    barrier for one failed every call on vulkan, test_loop_fusion_barriers) without regions,
    computes a complex scalar from constants alone."""
    return op.name != BARRIER and len(op.regions) == 0 and on_constants(op) and \
        _is_scalar(op.results[0].type) and is_complex(element_of(op.results[0]))


def _read_constants_through_barrier(op: ir.Operation) -> None:
    """The barrier goes before the op of the function's body that holds `op`: inside a loop,
    an optimization_barrier of constants failed every call on vulkan ('indirect buffer
    reference slot 0 is out range', test_transformer_decode_on_vulkan_keeps_its_device)."""
    where = op
    while where.parent is not None and where.parent.name != "func.func":
        where = where.parent
    with ir.InsertionPoint(where), op.location:
        copies = [v.owner.operation.clone().results[0] for v in op.operands]
        fenced = extras.optimization_barrier(copies)
    for i, value in enumerate(fenced):
        op.operands[i] = value


@dataclasses.dataclass
class BarrierConstantExpressions(Pass):
    """Read the constants of complex scalars of constants through barriers."""

    NAME = "shlo-barrier-constant-expressions"

    def run(self, op: ir.Operation) -> None:
        for found in [o.operation for o in nested_ops(op) if _scalar_of_constants(o.operation)]:
            _read_constants_through_barrier(found)
