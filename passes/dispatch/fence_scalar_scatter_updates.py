"""shlo-fence-scalar-scatter-updates: a scatter's one-element updates are read as a scalar
behind a barrier, reshaped back to the updates' shape.

IREE 3.13 folds a one-element slice (slice or dynamic_slice, reshaped or broadcast into the
updates' shape) into a rank-0 tensor.extract_slice followed by a tensor.expand_shape to the
updates' unit shape; its iree-dispatch-creation-bubble-up-expand-shapes then merges the two
into an extract_slice whose result has a higher rank than its source, which the verifier
rejects ('expected rank to be smaller or equal to the other rank'), on cpu and vulkan, also
without shlo's passes (shlo-fuzz seed 72 program 715: a scatter-add into f32[1, 1] of
reshape(x[0:1]); docs/iree_gaps.md#shlo-fence-scalar-scatter-updates). With the scalar
behind an optimization_barrier the expand_shape reads the barrier, not the slice (IREE moves
an expand_shape above a fusion barrier, and the merge happens again). Constant updates and
those of rank 1 (never of a higher rank than the slice's source) are left alone.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, nested_ops
from ..lib import builders as extras


def _one_element(value: ir.Value) -> bool:
    """Whether `value` is one element of rank 2 or more (a slice's source has rank 1 or more,
    so an extract_slice of rank 1 is always valid)."""
    t = ir.RankedTensorType(value.type)
    return t.has_static_shape and t.rank > 1 and all(d == 1 for d in t.shape)


def _constant(value: ir.Value) -> bool:
    return isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.constant"


@dataclasses.dataclass
class FenceScalarScatterUpdates(Pass):
    """Read each scatter's one-element updates of rank 2 or more (not constants) as a fenced
    scalar."""

    NAME = "shlo-fence-scalar-scatter-updates"

    def run(self, op: ir.Operation) -> None:
        for scatter in nested_ops(op, "stablehlo.scatter"):
            count = (len(scatter.operands) - 1) // 2
            for index in range(1 + count, 1 + 2 * count):
                updates = scatter.operands[index]
                if not _one_element(updates) or _constant(updates):
                    continue
                t = ir.RankedTensorType(updates.type)
                with ir.InsertionPoint(scatter), scatter.location:
                    scalar = stablehlo.reshape(
                        updates, result_type=ir.RankedTensorType.get([], t.element_type))
                    fenced = extras.optimization_barrier([scalar])[0]
                    scatter.operands[index] = stablehlo.reshape(fenced, result_type=t)
