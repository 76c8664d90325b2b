"""shlo-read-barrier-results: the ops after a `stablehlo.optimization_barrier` that read one of
its operands, or the value the operand is a reshape of, read the barrier's result instead.

IREE 3.13 gives a barrier's result its operand's buffer without counting the operand's other
readers, so an op that updates the result in place writes into the operand:
`return v, dynamic_update_slice(optimization_barrier(v), u, i)` returned v updated, silently,
on cpu and vulkan, also without shlo's passes (fuzz seed 74 program 75;
docs/iree_gaps.md#shlo-read-barrier-results). Read through the barrier, the result has
several readers and IREE copies it before the update. Readers of the value a fenced reshape
reads get the barrier's result reshaped back; the barrier itself stays where it is (shlo's
own fences place theirs on purpose). Only readers after the barrier in its block (or nested
in an op after it) are moved, so no cycle arises; the values read are the same.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, in_block, nested_ops

BARRIER = "stablehlo.optimization_barrier"


def _after(barrier: ir.Operation) -> set:
    """The ops that follow `barrier` in its block."""
    later, seen = set(), False
    for op in barrier.block.operations:
        op = op.operation
        if seen:
            later.add(op)
        seen = seen or op == barrier
    return later


def _view_root(barrier: ir.Operation, index: int) -> ir.Value:
    """The barrier's operand `index` followed back through reshapes that only this barrier
    reads."""
    value = barrier.operands[index]
    while isinstance(value, ir.OpResult) and value.owner.operation.name == "stablehlo.reshape" \
            and len(list(value.uses)) == 1 and value.owner.operation.block == barrier.block:
        value = value.owner.operation.operands[0]
    return value


def _reads_result_of(op: ir.Operation, barrier: ir.Operation) -> bool:
    return any(isinstance(v, ir.OpResult) and v.owner.operation == barrier for v in op.operands)


def _later_readers(value: ir.Value, barrier: ir.Operation, later: set) -> list:
    """(op, operand number) of the readers of `value` after `barrier` in its block, but for
    those that read the barrier's result too: shlo-copy-overlapping-updates' scatter(x, i,
    barrier(x)) needs its two values apart (as scatter(b, i, b) IREE's vulkan compile crashed:
    fuzz seed 62 program 179)."""
    readers = []
    for use in value.uses:
        owner = use.owner.operation
        if owner != barrier and in_block(owner, barrier.block) in later \
                and not _reads_result_of(owner, barrier):
            readers.append((owner, use.operand_number))
    return readers


def _read_through(barrier: ir.Operation) -> None:
    later = None
    for index, operand in enumerate(barrier.operands):
        root = _view_root(barrier, index)
        if len(list(root.uses)) < 2:        # the barrier (or its reshape) alone reads it
            continue
        later = _after(barrier) if later is None else later
        readers = _later_readers(root, barrier, later)
        if not readers:
            continue
        value = barrier.results[index]
        if root != operand:         # a reshape of the root: read it back in the root's shape
            with ir.InsertionPoint.after(barrier), barrier.location:
                value = stablehlo.reshape(value, result_type=root.type)
        for user, n in readers:
            user.operands[n] = value


@dataclasses.dataclass
class ReadBarrierResults(Pass):
    """Read an optimization_barrier's result, not its operand, after the barrier."""

    NAME = "shlo-read-barrier-results"

    def run(self, op: ir.Operation) -> None:
        for barrier in nested_ops(op, BARRIER):
            _read_through(barrier.operation)
