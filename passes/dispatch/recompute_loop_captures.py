"""shlo-recompute-loop-captures: in a while loop's body, a tensor that a conditional reads and
that ops after the conditional read too is computed a second time for those ops.

IREE 3.13's stream scheduler does not count a tensor that only an `if`/`case` region reads as
an input of the conditional. A loop body that computes a tensor `y`, reads it in a
conditional and again after it (jax: `y = sin(acc)`, a `lax.cond` of `y @ w`, a `lax.switch`
of its result, then `... + cos(y)`) failed: "failed to schedule execution partitions without
cyclic dependencies" (the conditionals with products stay conditionals:
shlo-select-loop-conditionals). Outside loops shlo-barrier-conditional-captures fences such
tensors; inside a loop that fence compiled but gave wrong answers.

The pass gives the ops after the conditionals their own copy of `y`: the pure ops that
compute it, when each costs about what reading its operands does (RECOMPUTABLE: elementwise
ops, shape ops, constants, iotas, gathers, reduces; at most MAX_OPS, such as shlo's accurate
sine), are cloned from the loop's carried values (and values from
outside the loop), read through a `stablehlo.optimization_barrier` so that no CSE merges the
copy back into the original. A tensor computed from anything else (a product, a sort, a
conditional's result), or from a carried value that a branch returns as it is, is left as
it is. docs/iree_gaps.md#shlo-recompute-loop-captures.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, clone_ops, is_inside, nested_ops
from ..lib import builders as extras
from ..lib.elementwise import ELEMENTWISE_OPS
from ..lib.loops import CONDITIONALS
from .barrier_loop_captures import captures

MAX_OPS = 256
# pure ops whose cost is about that of reading their operands (no products, sorts or loops);
# a reduce or a gather counts with what it holds
RECOMPUTABLE = ELEMENTWISE_OPS | {f"stablehlo.{name}" for name in (
    "constant", "iota", "broadcast_in_dim", "reshape", "transpose", "slice", "concatenate",
    "pad", "reverse", "reduce", "gather", "dynamic_slice", "return")}


def _recomputable(op: ir.Operation) -> bool:
    """Whether `op` (and what its regions hold) may run a second time at little cost."""
    return op.name in RECOMPUTABLE and all(
        _recomputable(inner) for region in op.regions for block in region.blocks
        for inner in block.operations)


def _chain(value: ir.Value, block: ir.Block) -> tuple[list[ir.Operation], list[ir.Value]] | None:
    """The ops of `block` that compute `value` from the block's arguments and from values
    defined outside it (in block order), and those sources; None when one of the ops is not
    `_recomputable` or there are more than MAX_OPS."""
    ops: dict[ir.Operation, None] = {}
    sources: dict[ir.Value, None] = {}
    todo = [value]
    while todo:
        v = todo.pop()
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.operation.block != block:
            sources[v] = None                        # carried, or from outside the loop body
            continue
        op = owner.operation
        if op in ops:
            continue
        if not _recomputable(op) or len(ops) == MAX_OPS:
            return None
        ops[op] = None
        todo.extend(op.operands)
    order = {op.operation: i for i, op in enumerate(block.operations)}
    return sorted(ops, key=lambda op: order[op]), list(sources)


def _positions(block: ir.Block) -> dict[ir.Operation, int]:
    return {op.operation: i for i, op in enumerate(block.operations)}


def _recompute(conditional: ir.Operation, block: ir.Block) -> None:
    position = _positions(block)

    def after(user: ir.Operation) -> ir.Operation | None:
        """The op of `block` that holds `user` when it comes after the conditional, else None."""
        while user.block != block:
            user = user.parent.operation
        return user if position[user] > position[conditional] else None

    conditionals = _conditionals(block)
    for value in captures(conditional):
        if value.owner.operation.block != block:
            continue
        readers, holders = [], []
        for use in value.uses:
            user = use.owner.operation
            holder = after(user)
            if holder is not None and not any(is_inside(user, c) for c in conditionals):
                readers.append((user, use.operand_number))
                holders.append(holder)
        chain = _chain(value, block) if readers else None
        if chain is None or not chain[1] or any(_returned(v, block) for v in chain[1]):
            continue
        ops, sources = chain
        first = min(holders, key=lambda op: position[op])
        with ir.InsertionPoint(first), first.location:
            copies = clone_ops(ops, dict(zip(sources, extras.optimization_barrier(sources))))
        for user, index in readers:
            user.operands[index] = copies[value]
        position = _positions(block)


def _returned(value: ir.Value, block: ir.Block) -> bool:
    """Whether a branch of a conditional of `block` returns `value` as it is (read through the
    barrier too, such a carried value made IREE's CPU runtime fail: 'transient buffer has not
    been committed')."""
    return any(use.owner.operation.name == "stablehlo.return"
               and use.owner.operation.parent.name in CONDITIONALS
               and use.owner.operation.parent.operation.block == block for use in value.uses)


def _conditionals(block: ir.Block) -> list[ir.Operation]:
    return [op.operation for op in block.operations if op.name in CONDITIONALS]


@dataclasses.dataclass
class RecomputeLoopCaptures(Pass):
    """Recompute, after a loop body's conditionals, the cheap tensors they read that later
    ops read too."""

    NAME = "shlo-recompute-loop-captures"

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            block = loop.regions[1].blocks[0]
            for conditional in _conditionals(block):
                _recompute(conditional.operation, block)
