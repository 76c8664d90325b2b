"""shlo-fence-sort-slices: a sort's operand that is a slice (or dynamic_slice) is computed
behind a fusion barrier.

IREE sorts in place, copying its operand into the result buffer in the sort's dispatch. Where
that operand is a slice of a function argument (`jnp.sort(x[1:, :-1], axis=1)`, any element
type and size, also `slice(pad(x))`), the copy it fuses in fails to compile on the CPU:
"'linalg.generic' op write affecting operations on global resources are restricted to
workgroup distributed contexts", also without shlo's passes (shlo-fuzz seed 40 program 230;
docs/iree_gaps.md#shlo-fence-sort-slices). Behind a barrier the slice is a dispatch of its own
and the sort copies a finished tensor, as it does for any computed operand.
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


@dataclasses.dataclass
class FenceSortSlices(Pass):
    """Read each sliced operand of a stablehlo.sort through a fusion barrier."""

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
