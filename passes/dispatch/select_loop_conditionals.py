"""shlo-select-loop-conditionals: an `if` or `case` inside a while loop whose branches are a few
cheap, pure ops becomes a select of every branch's results.

IREE 3.13 runs a conditional as a host branch: each one in a loop body is a wait on the host
per trip, and a body with a `lax.cond` followed by a `lax.switch` (or two conds) that read a
tensor computed in the body failed its stream scheduling ("failed to schedule execution
partitions without cyclic dependencies", every target; fencing the tensor, as
shlo-barrier-conditional-captures does outside loops, compiled but gave wrong answers in a
loop; docs/iree_gaps.md#shlo-select-loop-conditionals). Computed on the device, both branches
then a select, the loop has no conditional left. XLA's `vmap` of a cond does the same.

A conditional is rewritten when its results are statically shaped tensors and its branches
hold at most MAX_OPS ops, all of them elementwise ops (no integer division or remainder: a
branch not taken may divide by zero), shape ops, constants, iotas or reduces of such
bodies; a branch with a loop, another conditional, a product, a gather or anything with
effects keeps the conditional. `case` picks its last branch for an index out of range, as
the spec says.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import is_quantized
from ..base import Pass, nested_ops
from ..chlo.structure import inline_block
from ..lib.elementwise import ELEMENTWISE_OPS
from ..lib.loops import CONDITIONALS, inside_loop

MAX_OPS = 64
_CHEAP = ELEMENTWISE_OPS | {f"stablehlo.{name}" for name in (
    "constant", "iota", "broadcast_in_dim", "reshape", "transpose", "slice", "concatenate",
    "pad", "reverse", "reduce", "return")}


def _static_tensor(t: ir.Type) -> bool:
    """A statically shaped tensor of a type a select takes (not quantized)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
        not is_quantized(t.element_type)


def _cheap(op: ir.Operation) -> bool:
    """Whether `op` (and what it holds) is cheap and pure enough to run when not taken."""
    if op.name not in _CHEAP or not all(_static_tensor(r.type) for r in op.results):
        return False
    if op.name in ("stablehlo.divide", "stablehlo.remainder") and isinstance(
            ir.RankedTensorType(op.results[0].type).element_type.maybe_downcast(),
            ir.IntegerType):
        return False
    return all(_cheap(inner) for region in op.regions for block in region.blocks
               for inner in block.operations)


def _selectable(conditional: ir.Operation) -> bool:
    if not all(_static_tensor(r.type) for r in conditional.results):
        return False
    ops = [op for region in conditional.regions for op in region.blocks[0].operations]
    return len(ops) <= MAX_OPS + len(conditional.regions) and all(_cheap(op) for op in ops)


def _to_select(conditional: ir.Operation) -> None:
    index = conditional.operands[0]
    with ir.InsertionPoint(conditional), conditional.location:
        branches = [inline_block(region.blocks[0], []) for region in conditional.regions]
        if conditional.name == "stablehlo.if":        # regions: true, false
            chosen = [stablehlo.select(index, t, f) for t, f in zip(*branches)]
        else:                                         # out of range: the last branch
            chosen = branches[-1]
            for k in range(len(branches) - 2, -1, -1):
                k_ = stablehlo.constant(k, result_type=index.type)
                is_k = stablehlo.compare(index, k_, comparison_direction="EQ")
                chosen = [stablehlo.select(is_k, a, b) for a, b in zip(branches[k], chosen)]
    for result, value in zip(conditional.results, chosen):
        result.replace_all_uses_with(value)
    conditional.erase()


@dataclasses.dataclass
class SelectLoopConditionals(Pass):
    """Rewrite if/case ops inside while loops whose branches are cheap and pure into selects
    of every branch's results."""

    NAME = "shlo-select-loop-conditionals"

    def run(self, op: ir.Operation) -> None:
        # post-order: a conditional nested in a branch is rewritten before the one around it
        for conditional in nested_ops(op, "stablehlo."):
            if conditional.name in CONDITIONALS and inside_loop(conditional) and \
                    _selectable(conditional.operation):
                _to_select(conditional.operation)
