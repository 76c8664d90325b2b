"""shlo-fence-transposed-dots: around a dot_general that reads an operand transposed, the
elementwise producer of that operand (when something else reads it too) and, for a dot that
reads its lhs transposed (a weight gradient x^T dy), its own result (when elementwise ops read
it) are computed behind fusion barriers.

In a training step's backward pass, each activation gradient dy feeds two matmuls: dx = dy w^T
reads it as it is, dw = x^T dy contracts over its rows (tokens), i.e. reads an operand
transposed. With data tiling, IREE's CPU code generator fails on two fusions around such
a dot (shlo-bench's 2-layer transformer training step, both kinds in one module;
docs/iree_gaps.md#shlo-fence-transposed-dots):
- dy's elementwise producer (a GELU's or a log-softmax's gradient, with the row reduction it
  reads) fused with both relayouts of dy, one of them transposed: too large vectors;
- the dot fused with the optimizer's update of the weight (Adam: parameter and both moments in
  the matmul's tiled layout): too much stack, with or without aggressive fusion.
Behind the barriers dy is written once and each matmul relayouts it in a dispatch of its own,
and the update reads the finished gradient. The result of a dot reading only its rhs
transposed (dx = dy w^T) stays fused: fenced, an MLP step's dx dispatch needs too much
stack (test_jax_jit's training step). A dot reads an operand transposed when its dims are
not in the order (batch, free, contracting) for the lhs, (batch, contracting, free) for the rhs.
Only values computed outside loops and conditionals, with static shapes, are fenced
(`chlo_stablehlo_extras.fusion_barrier`).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect.rebuild import arguments
from ..lib import builders as extras
from ..base import Pass, nested_ops
from ..lib.elementwise import ELEMENTWISE_OPS


def reads_transposed(op: ir.Operation, index: int) -> bool:
    """Whether dot_general `op` reads operand `index` (0: lhs, 1: rhs) with its dims out of
    the (batch, free, contracting) / (batch, contracting, free) order."""
    _, numbers = arguments(op)
    side = ("lhs", "rhs")[index]
    rank = ir.RankedTensorType(op.operands[index].type).rank
    batch = list(numbers.get(f"{side}_batching_dimensions") or ())
    contracting = list(numbers.get(f"{side}_contracting_dimensions") or ())
    free = [d for d in range(rank) if d not in batch and d not in contracting]
    order = batch + (free + contracting if index == 0 else contracting + free)
    return order != list(range(rank))


def _static(value: ir.Value) -> bool:
    return ir.RankedTensorType(value.type).has_static_shape


def _shared_elementwise(value: ir.Value) -> bool:
    """Whether `value` is an elementwise op's static result that more than one op reads."""
    owner = value.owner
    return (isinstance(owner, (ir.Operation, ir.OpView)) and owner.name in ELEMENTWISE_OPS
            and _static(value) and len(list(value.uses)) > 1)


@dataclasses.dataclass
class FenceTransposedDots(Pass):
    """Fence a transposed-reading dot_general's shared elementwise operands, and a weight
    gradient's result read by elementwise ops (outside loops, static shapes)."""

    NAME = "shlo-fence-transposed-dots"

    def run(self, op: ir.Operation) -> None:
        fenced: dict[ir.Value, ir.Value] = {}
        for dot in nested_ops(op, "stablehlo.dot_general"):
            if dot.parent.name != "func.func":
                continue
            transposed = [i for i in (0, 1) if reads_transposed(dot, i)]
            for index in transposed:
                value = dot.operands[index]
                if not _shared_elementwise(value):
                    continue
                if value not in fenced:
                    with ir.InsertionPoint(dot), dot.location:
                        fenced[value] = extras.fusion_barrier(value)
                dot.operands[index] = fenced[value]
            result = dot.results[0]
            if 0 in transposed and _static(result) and any(
                    use.owner.name in ELEMENTWISE_OPS for use in result.uses):
                extras.fence_uses(result)
