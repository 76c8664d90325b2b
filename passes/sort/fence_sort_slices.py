"""shlo-fence-sort-slices: a sort's operand that is a slice (or dynamic_slice) is computed
behind a fusion barrier.

IREE sorts in place, copying its operand into the result buffer in the sort's dispatch. Where
that operand is a slice of a function argument (`jnp.sort(x[1:, :-1], axis=1)`, any element
type and size, also `slice(pad(x))`), the copy it fuses in fails to compile on the CPU:
"'linalg.generic' op write affecting operations on global resources are restricted to
workgroup distributed contexts", also without shlo's passes (shlo-fuzz seed 40 program 230;
docs/iree_gaps.md#shlo-fence-sort-slices). Behind a barrier the slice is a dispatch of its own
and the sort copies a finished tensor, as it does for any computed operand.
A sort's result that a pad, a reduce_window or a dynamic_update_slice (as its update) reads
goes through a barrier too: IREE sorted it in place in the larger result's buffer and failed alike
(`jnp.pad(jnp.sort(x))` of any shape, element type and sort dimension, also a sort along a
dimension of size 1 read by a padded reduce_window; shlo-fuzz seed 44 program 242).
Static shapes only (`lib.builders.fusion_barrier`).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras

SLICES = ("stablehlo.slice", "stablehlo.dynamic_slice")


def _sliced(value: ir.Value) -> bool:
    """Whether `value` is a static-shape result of a slice or dynamic_slice."""
    t = value.type.maybe_downcast()
    return isinstance(value, ir.OpResult) and value.owner.name in SLICES and \
        isinstance(t, ir.RankedTensorType) and t.has_static_shape


def _stored_into(value: ir.Value) -> bool:
    """Whether a pad or reduce_window, or a dynamic_update_slice as its update, reads
    `value` (IREE writes the sort's result into part of a larger buffer)."""
    return any(use.owner.name in ("stablehlo.pad", "stablehlo.reduce_window") or (
        use.owner.name == "stablehlo.dynamic_update_slice" and use.operand_number == 1)
        for use in value.uses)


@dataclasses.dataclass
class FenceSortSlices(Pass):
    """Read each sliced operand of a stablehlo.sort, and each result that a pad, a
    reduce_window or a dynamic_update_slice stores, through a fusion barrier."""

    NAME = "shlo-fence-sort-slices"

    def run(self, op: ir.Operation) -> None:
        for sort in nested_ops(op, "stablehlo.sort"):
            fenced: dict[ir.Value, ir.Value] = {}
            for index, value in enumerate(sort.operands):
                if not _sliced(value):
                    continue
                if value not in fenced:
                    with ir.InsertionPoint(sort), sort.location:
                        fenced[value] = extras.fusion_barrier(value)
                sort.operands[index] = fenced[value]
            for result in sort.results:
                t = result.type.maybe_downcast()
                if isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
                        _stored_into(result):
                    extras.fence_uses(result, lambda v: extras.fence([v])[0])
