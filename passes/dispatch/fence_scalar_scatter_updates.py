"""shlo-fence-scalar-scatter-updates: a one-element view of a lower-rank slice (a scatter's
updates, a pad's or a reduce_window's operand, ...) is read as a scalar behind a barrier,
reshaped back.

IREE 3.13 folds a one-element slice (slice or dynamic_slice) into a rank-0
tensor.extract_slice, and a reshape or broadcast_in_dim of it to a unit shape into a
tensor.expand_shape of that scalar; its iree-dispatch-creation-bubble-up-expand-shapes then
merges the two into an extract_slice whose result has a higher rank than its source, which the
verifier rejects ('expected rank to be smaller or equal to the other rank'), on cpu and
vulkan, also without shlo's passes. First found as a scatter's updates (shlo-fuzz seed 72
program 715: a scatter-add into f32[1, 1] of reshape(x[0:1])), then as the operand of a pad,
a sort, a padded reduce_window or a scatter, and as a value returned next to an elementwise
op, gather, reduce, broadcast or concatenate of it (seeds 62 and 75;
docs/iree_gaps.md#shlo-fence-scalar-scatter-updates). With the scalar behind an
optimization_barrier the expand_shape reads the barrier, not the slice (IREE moves an
expand_shape above a fusion barrier, and the merge happens again). Views of rank at most the
slice's source's never outrank it and are left alone.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, nested_ops
from ..lib import builders as extras

VIEWS = ("stablehlo.reshape", "stablehlo.broadcast_in_dim")
SLICES = ("stablehlo.slice", "stablehlo.dynamic_slice")


def _one_element(value: ir.Value) -> bool:
    t = ir.RankedTensorType(value.type)
    return t.has_static_shape and all(d == 1 for d in t.shape)


def _sliced_rank(value: ir.Value) -> int | None:
    """The rank of the tensor that `value` (one element) is sliced from, looking through
    one-element views; None when it is not a slice's."""
    while isinstance(value, ir.OpResult) and _one_element(value):
        owner = value.owner
        if owner.name in SLICES:
            source = owner.operands[0]
            constant = isinstance(source, ir.OpResult) and source.owner.name == "stablehlo.constant"
            return None if constant else ir.RankedTensorType(source.type).rank
        if owner.name not in VIEWS:
            return None
        value = owner.operands[0]
    return None


def _outranks(value: ir.Value) -> bool:
    """Whether `value` is a one-element view of a slice of a lower-rank tensor (not a
    constant)."""
    if not (isinstance(value, ir.OpResult) and value.owner.name in VIEWS
            and _one_element(value)):
        return False
    rank = _sliced_rank(value.owner.operands[0])
    return rank is not None and ir.RankedTensorType(value.type).rank > rank


def _fenced(value: ir.Value) -> bool:
    """Whether every reader of `value` is a rank-0 reshape that a barrier reads (this pass's
    fence)."""
    users = [use.owner for use in value.uses]
    return bool(users) and all(
        u.name == "stablehlo.reshape" and ir.RankedTensorType(u.results[0].type).rank == 0
        and all(use.owner.name == "stablehlo.optimization_barrier" for use in u.results[0].uses)
        for u in users)


def _scalar_fence(value: ir.Value) -> ir.Value:
    """`value` (one element) reshaped to a scalar, behind an optimization_barrier, reshaped
    back."""
    t = ir.RankedTensorType(value.type)
    scalar = stablehlo.reshape(value, result_type=ir.RankedTensorType.get([], t.element_type))
    return stablehlo.reshape(extras.optimization_barrier([scalar])[0], result_type=t)


@dataclasses.dataclass
class FenceScalarScatterUpdates(Pass):
    """Read each one-element view of a slice of a lower-rank tensor as a fenced scalar."""

    NAME = "shlo-fence-scalar-scatter-updates"

    def run(self, op: ir.Operation) -> None:
        for view in nested_ops(op, "stablehlo."):
            if view.name not in VIEWS:
                continue
            value = view.results[0]
            # the innermost such view is fenced; views of it then read the barrier
            if _outranks(value) and not _outranks(view.operands[0]) and list(value.uses) \
                    and not _fenced(value):
                extras.fence_uses(value, _scalar_fence)
