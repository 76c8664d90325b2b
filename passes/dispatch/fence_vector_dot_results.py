"""shlo-fence-vector-dot-results: the result of a vector-matrix or matrix-vector dot_general
(no batch dims; one operand's free dims all of size 1) that a convert reads, and something
else too, is read through a barrier.

IREE 3.13 lowers such a dot through reshapes to linalg.vecmat/matvec/dot; when its result is
converted both directly and through a broadcast_in_dim (which IREE's preprocessing turns into
a broadcast of the convert), its StableHLO-to-linalg conversion leaves a cast behind and
fails ('failed to legalize unresolved source materialization from tensor<1x1x8xi8> to
tensor<1x1x8xf32>'), for i8/i16/i32/i64/f16/bf16/f64 results of 1x2 @ 2x8 up to 1x1024 @
1024x4096 and of 4x2 @ 2x1, on cpu and vulkan, also without shlo's passes (a rank-1 lhs and a
batched 4x1x64 @ 4x64x32 product compile; shlo-fuzz seed 49 program 204;
docs/iree_gaps.md#shlo-fence-vector-dot-results). Behind the barrier the dot's readers see an
opaque value. The fenced value may be a convert that alone reads the dot (an f16 dot computed
in f32 by shlo-accumulate-in-f32 and converted back). The reader may reach the convert through
views (reshape, broadcast_in_dim, transpose, slice). Static shapes outside loops get a fusion
barrier, others an optimization_barrier.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect.rebuild import arguments
from ..base import Pass, nested_ops
from ..lib import builders as extras

VIEWS = ("stablehlo.reshape", "stablehlo.broadcast_in_dim", "stablehlo.transpose",
         "stablehlo.slice")


def is_vector_dot(op: ir.Operation, *, vectors: bool = False) -> bool:
    """Whether dot_general `op`, without batch dims, has an operand with free (not
    contracting) dims, all of size 1 (IREE reshapes them away; a rank-1 operand or a batched
    product compiles); `vectors`: an operand without free dims counts too."""
    _, numbers = arguments(op)
    if numbers.get("lhs_batching_dimensions"):
        return False
    for index, side in enumerate(("lhs", "rhs")):
        t = ir.RankedTensorType(op.operands[index].type)
        contracting = set(numbers.get(f"{side}_contracting_dimensions") or ())
        free = [t.shape[d] for d in range(t.rank) if d not in contracting]
        if t.has_static_shape and (free or vectors) and math.prod(free) == 1:
            return True
    return False


def _converted(value: ir.Value, depth: int = 4) -> bool:
    """Whether a convert reads `value`, directly or through views."""
    for use in value.uses:
        user = use.owner
        if user.name == "stablehlo.convert":
            return True
        if depth and user.name in VIEWS and _converted(user.results[0], depth - 1):
            return True
    return False


def _through_single_converts(value: ir.Value) -> ir.Value:
    """`value`, or the last of a chain of converts each of which alone reads the one before
    (shlo-accumulate-in-f32 computes an f16 dot in f32 and converts its result back)."""
    while True:
        uses = list(value.uses)
        if len(uses) != 1 or uses[0].owner.name != "stablehlo.convert":
            return value
        value = uses[0].owner.results[0]


@dataclasses.dataclass
class FenceVectorDotResults(Pass):
    """Read a converted vector-matrix/matrix-vector dot_general's result through a barrier."""

    NAME = "shlo-fence-vector-dot-results"

    def run(self, op: ir.Operation) -> None:
        for dot in nested_ops(op, "stablehlo.dot_general"):
            result = _through_single_converts(dot.results[0])
            if len(list(result.uses)) < 2 or not is_vector_dot(dot) or not _converted(result):
                continue
            extras.fence_uses(result, lambda value: extras.fence([value])[0])
