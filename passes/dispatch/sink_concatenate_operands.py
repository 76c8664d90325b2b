"""shlo-sink-concatenate-operands: a concatenate of a value computed from a conditional's
result reads its other operands computed after that conditional.

IREE 3.13's stream allocation (`iree-stream-emplace-allocations`) writes a dispatch's result
straight into the concatenate's buffer, moving what builds that buffer in front of the
dispatch: when the dispatch comes before an `if`/`case` from whose result the concatenate
computes another operand, it moved the conditional above values its branches read, and the compile failed ("operand
#0 does not dominate this use"; cpu and vulkan, any size; jax writes `z = f(x); r =
lax.cond(...); concatenate([r, z])` in that order). Computed after the conditional, as jax's
own order `r = lax.cond(...); concatenate([r, f(x)])` has it, the same values compile.

So each such operand's producer moves right after the conditional when nothing before the
conditional reads it; else a copy of that one op, when it costs what reading its operands
does (RECOMPUTABLE), computes it there, its operands read through an
`optimization_barrier` (without it CSE merges the copy back into the original). Other
producers stay. docs/iree_gaps.md#shlo-sink-concatenate-operands.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, clone_ops, nested_ops
from ..lib import builders as extras
from ..lib.loops import CONDITIONALS
from .recompute_loop_captures import RECOMPUTABLE

# ops walked back from a concatenate to find the conditionals it reads, at most
MAX_OPS = 512
# ops that stay where they are: calls out of the module and ops across processes
FIXED = frozenset(f"stablehlo.{name}" for name in (
    "custom_call", "all_reduce", "all_gather", "all_to_all", "reduce_scatter",
    "collective_permute", "collective_broadcast", "send", "recv", "infeed", "outfeed",
    "after_all", "optimization_barrier", "constant"))


def _holder(op: ir.Operation, block: ir.Block) -> ir.Operation | None:
    """The op of `block` that is `op` or holds it, or None."""
    while op is not None and op.block != block:
        parent = op.parent
        op = parent.operation if parent is not None else None
    return op


def _last_conditional(concatenate: ir.Operation, position: dict) -> ir.Operation | None:
    """The last conditional of the concatenate's block that the concatenate's operands are
    computed from (within the block, at most MAX_OPS ops back), or None."""
    block, last = concatenate.block, None
    seen: set = set()
    todo = [v for v in concatenate.operands if isinstance(v, ir.OpResult)]
    while todo and len(seen) < MAX_OPS:
        op = todo.pop().owner.operation
        if op.block != block or op in seen:
            continue
        seen.add(op)
        if op.name in CONDITIONALS:
            if last is None or position[op] > position[last]:
                last = op
            continue
        todo.extend(v for v in op.operands if isinstance(v, ir.OpResult))
    return last


def _sink(concatenate: ir.Operation) -> None:
    block = concatenate.block
    position = {op.operation: i for i, op in enumerate(block.operations)}
    last = _last_conditional(concatenate, position)
    if last is None:
        return
    producers: dict[ir.Operation, None] = {}
    for value in concatenate.operands:
        if isinstance(value, ir.OpResult):
            op = value.owner.operation
            if op.block == block and position[op] < position[last] and not op.regions \
                    and op.name.startswith("stablehlo.") and op.name not in FIXED:
                producers[op] = None
    at, moved = last, set()
    for op in sorted(producers, key=lambda op: position[op]):
        holders = [_holder(use.owner.operation, block) for r in op.results for use in r.uses]
        if all(h is not None and (h in moved or position[h] > position[last])
               for h in holders):
            op.move_after(at)
            at = op
            moved.add(op)
        elif op.name in RECOMPUTABLE and len(op.operands):
            with ir.InsertionPoint.after(at), op.location:
                sources = list(op.operands)
                barrier = extras.optimization_barrier(sources) if sources else []
                copy = clone_ops([op], dict(zip(sources, barrier)))
            for index, value in enumerate(concatenate.operands):
                if value in copy:
                    concatenate.operands[index] = copy[value]
            at = copy[op.results[0]].owner.operation


@dataclasses.dataclass
class SinkConcatenateOperands(Pass):
    """Compute a concatenate's operands after the conditionals whose results it reads."""

    NAME = "shlo-sink-concatenate-operands"

    def run(self, op: ir.Operation) -> None:
        for concatenate in nested_ops(op, "stablehlo.concatenate"):
            _sink(concatenate)
