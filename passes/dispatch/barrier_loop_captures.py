"""shlo-barrier-loop-captures: tensors a while loop reads from outside, computed once behind a
barrier.

IREE clones a cheap producer of a tensor that a `stablehlo.while` body reads from outside
the loop (a gather, for one) into the dispatch inside the loop that reads it, and its CPU code
generator then fails on some of those fusions (jax's LU solve;
docs/iree_gaps.md#shlo-barrier-loop-captures). Recomputing the producer on every
trip is also work the loop does not need. The pass puts every such capture, when statically
shaped and of rank 1 or more, behind a fusion barrier before the loop
(`iree_tensor_ext.compute_barrier.start`, `chlo_stablehlo_extras.fusion_barrier`), so it is
computed once and the loop reads the result. Constants, function arguments and values of
other loops' regions stay as they are, and so do dynamic shapes. (A
`stablehlo.optimization_barrier` also fences, but makes IREE wait on the host for the captures
before the loop starts.)
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, defining_op, is_inside, is_static_tensor, nested_ops

# Producers IREE folds or treats as free: a barrier would only stop that.
_FREE = frozenset({"stablehlo.constant", "arith.constant"})


def computed_outside(value: ir.Value, holder: ir.Operation) -> bool:
    """Whether a computing op (not a constant) outside `holder` defines `value`."""
    producer = defining_op(value)
    return (producer is not None and producer.name not in _FREE
            and not is_inside(producer, holder))


def captures(holder: ir.Operation) -> list[ir.Value]:
    """Static tensors of rank >= 1 that the regions of `holder` (a while loop or a conditional)
    read and that a computing op outside it defines."""
    found: list[ir.Value] = []

    def visit(o):
        if o.operation == holder:
            return ir.WalkResult.ADVANCE
        for v in o.operands:
            if v in found or not computed_outside(v, holder):
                continue
            if is_static_tensor(v) and ir.RankedTensorType(v.type).rank > 0:
                found.append(v)
        return ir.WalkResult.ADVANCE
    holder.walk(visit)
    return found


def _barrier(loop: ir.Operation) -> None:
    loop = loop.operation
    read = captures(loop)
    if not read:
        return
    extras.fence_readers(read, loop, extras.fusion_barriers, before=True,
                         reads=lambda user: user != loop and is_inside(user, loop))


@dataclasses.dataclass
class BarrierLoopCaptures(Pass):
    """Compute static tensors a while loop reads from outside once, behind a barrier."""

    NAME = "shlo-barrier-loop-captures"

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            _barrier(loop)
