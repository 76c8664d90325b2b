"""shlo-fence-vector-dots-beside-gathers (Vulkan): a vector-matrix or matrix-vector product
whose result an elementwise op reads together with gathered or reversed values is computed in
a dispatch of its own.

IREE 3.13's SPIR-V backend fuses the product and its elementwise consumer into one dispatch;
when the consumer reads a gather or a reverse there (a `tensor.extract` at a computed index),
the dispatch keeps a vector<256xf32> it cannot lower, for products of 512 outputs and more:
"failed to legalize operation 'arith.constant'", also without shlo's passes
(`jnp.tanh(x[0] @ u + x[1, ::-1])`, `... + x[1][i]`, `... + jnp.sort(x[1])` (shlo's sorting
network ends in a gather), an RNN `lax.scan` over the reversed sorted rows: shlo-fuzz --jax
seed 5 program 12; docs/iree_gaps.md#shlo-fence-vector-dots-beside-gathers). Matrix products
and 256 outputs compiled. The analysis follows the product's result through elementwise ops
of its shape; each other operand of those ops back through elementwise ops, views (reshape,
broadcast_in_dim, transpose, convert, slices) and a loop body's arguments (to the loop's
operands), at most MAX_STEPS ops, to a gather or reverse.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras
from ..lib.elementwise import ELEMENTWISE_OPS
from .fence_vector_dot_results import is_vector_dot

INDEXED = frozenset({"stablehlo.gather", "stablehlo.reverse"})
VIEWS = frozenset({"stablehlo.reshape", "stablehlo.broadcast_in_dim", "stablehlo.transpose",
                   "stablehlo.slice", "stablehlo.dynamic_slice"})
MAX_STEPS = 256


def _producer_operands(value: ir.Value) -> list[ir.Value]:
    """What `value` is computed from, as the backward walk follows it: an elementwise op's or
    a view's operands (a dynamic_slice's sliced operand only), a loop body argument's loop
    operand; [] elsewhere."""
    if isinstance(value, ir.BlockArgument):
        owner = value.owner.owner
        if owner.name == "stablehlo.while" and value.arg_number < len(owner.operands):
            return [owner.operands[value.arg_number]]
        return []
    owner = value.owner
    if owner.name in ELEMENTWISE_OPS:
        return list(owner.operands)
    if owner.name in VIEWS:
        return [owner.operands[0]]
    return []


def _reads_indexed(values: list[ir.Value], skip: ir.Value) -> bool:
    """Whether any of `values` (not `skip`) is computed from a gather or reverse."""
    seen, stack, steps = set(), [v for v in values if v != skip], 0
    while stack and steps < MAX_STEPS:
        value = stack.pop()
        if value in seen or value == skip:
            continue
        seen.add(value)
        steps += 1
        if isinstance(value, ir.OpResult) and value.owner.name in INDEXED:
            return True
        stack.extend(_producer_operands(value))
    return False


def _beside_indexed(result: ir.Value) -> bool:
    """Whether an elementwise op that reads `result`, directly or through elementwise ops of
    its shape, also reads gathered or reversed values."""
    shape = ir.RankedTensorType(result.type).shape
    seen, stack = set(), [result]
    while stack:
        value = stack.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.owner
            if user.name not in ELEMENTWISE_OPS:
                continue
            if _reads_indexed(list(user.operands), value):
                return True
            stack.extend(r for r in user.results if ir.RankedTensorType(r.type).shape == shape)
    return False


@dataclasses.dataclass
class FenceVectorDotsBesideGathers(Pass):
    """Compute a vector product that is added (or otherwise combined) to gathered or reversed
    values in a dispatch of its own."""

    NAME = "shlo-fence-vector-dots-beside-gathers"

    def run(self, op: ir.Operation) -> None:
        for dot in nested_ops(op, "stablehlo.dot_general"):
            if is_vector_dot(dot, vectors=True) and _beside_indexed(dot.results[0]):
                extras.fence_uses(dot.results[0], lambda v: extras.fence([v])[0])
