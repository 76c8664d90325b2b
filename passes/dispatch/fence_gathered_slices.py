"""shlo-fence-gathered-slices: a strided slice that a gather or a reverse reads, directly or
through views, is computed behind a fusion barrier.

IREE 3.13 folds or fuses such a slice into the gather's or reverse's dispatch, which then
loads by index from a strided view of the operand's buffer; llvm-cpu code generation cannot:
"LLVM Translation failed for operation: builtin.unrealized_conversion_cast", also without
shlo's passes; Vulkan is right (docs/iree_gaps.md#shlo-fence-gathered-slices). Found as
`x[:, 1::3][:, idx]` (a gather, any element type, also through a dynamic_slice of the whole
slice), then as a reverse of a column of a 3-D pad (shlo-fuzz seed 147 program 174):
`jnp.take(x[0, ::2], i)`, `jnp.flip(x[0, ::2])`, `jnp.flip(x[:, :, 1:2], 1)` at any size.
A slice is strided when it has a stride other than 1 or its elements are not one contiguous
run of its operand's (a column); the views are slices, reshapes, transposes, reverses,
converts, bitcast_converts and broadcasts, at most MAX_VIEWS of them. Behind the barrier (in
loops and conditionals an optimization_barrier: `lib.builders.fence`) the slice is a dispatch
of its own that writes a contiguous tensor. Contiguous slices (rows, x[3, 5:900]) and slices
read through other ops are left alone.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..expand.index_vectors import is_static
from ..lib import builders as extras
from ..shapes.refine_fold import ints
from .fence_sliced_products import is_contiguous

READERS = ("stablehlo.gather", "stablehlo.reverse")
SLICES = ("stablehlo.slice", "stablehlo.dynamic_slice")
# ops IREE folds or fuses into the gather or reverse with the slice they read
VIEWS = SLICES + ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.reverse",
                  "stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.broadcast_in_dim")
MAX_VIEWS = 8


def _strided(slice_op: ir.Operation) -> bool:
    """Whether the slice or dynamic_slice `slice_op` has a stride other than 1, or keeps
    elements that are not one contiguous run of its static operand's."""
    if slice_op.name == "stablehlo.slice" and any(k != 1 for k in ints(slice_op, "strides")):
        return True
    return is_static(slice_op.operands[0], slice_op.results[0]) and not is_contiguous(slice_op)


def _strided_slice(value: ir.Value) -> ir.Value | None:
    """The static result of the strided slice nearest `value` among the views it is computed
    by (`value` itself included); None if there is none."""
    for _ in range(MAX_VIEWS):
        if not isinstance(value, ir.OpResult) or value.owner.name not in VIEWS:
            return None
        owner = value.owner
        if owner.name in SLICES and _strided(owner):
            t = ir.RankedTensorType(value.type)
            return value if t.has_static_shape and math.prod(t.shape) else None
        value = owner.operands[0]
    return None


@dataclasses.dataclass
class FenceGatheredSlices(Pass):
    """Read each strided slice that a gather or reverse reads through a fusion barrier."""

    NAME = "shlo-fence-gathered-slices"

    def run(self, op: ir.Operation) -> None:
        fenced: set = set()
        for reader in nested_ops(op, "stablehlo."):
            if reader.name not in READERS:
                continue
            value = _strided_slice(reader.operands[0])
            if value is not None and value not in fenced:
                fenced.add(value)
                extras.fence_uses(value, lambda v: extras.fence([v])[0])
