"""shlo-barrier-constant-expressions: values computed from constants alone, in the two forms IREE
computes wrongly, read through `stablehlo.optimization_barrier`s.

- A scalar op (results of at most one element) whose operands are all constants reads copies
  of its constants through a barrier. IREE grouped such scalars into one dispatch of several
  results, hoisted it into a module initializer and gave every global the first result:
  `z.sum(), z.prod()` of complex64 on vulkan started the product from (0, 0), silently;
  scalars of other sizes failed to compile or to run (fuzz seed 117 program 325).
- A value computed from constants alone (no function or region argument reaches it) that a
  dynamic_update_slice, scatter or sort updates in place and another op reads: every reader
  reads it through one barrier. IREE returned `a = 2 * iota` of 512K elements updated, and
  its update as zeros, for `return a, dynamic_update_slice(a, x, i)`; `cos(iota)` sorted for
  `return a, sort(a)`, on cpu and vulkan.

IREE clones a dispatch that reads no buffer where it needs a copy of its result, and the
clones come out wrong (docs/iree_gaps.md#shlo-barrier-constant-expressions). Through a
barrier, a scalar is no constant expression to IREE and its dispatch reads a buffer; an
updated value is copied from the barrier's result.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras

CONSTANT = "stablehlo.constant"
BARRIER = "stablehlo.optimization_barrier"
# op -> the operands it updates in place
IN_PLACE = {"stablehlo.dynamic_update_slice": lambda op: [op.operands[0]],
            "stablehlo.scatter": lambda op: list(op.operands[:len(op.results)]),
            "stablehlo.sort": lambda op: list(op.operands)}


def _is_scalar(t: ir.Type) -> bool:
    """Whether `t` is a static tensor of at most one element (IREE's scalar dispatch limit)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
        all(d <= 1 for d in t.shape)


def _scalar_of_constants(op: ir.Operation) -> bool:
    """Whether `op`, a StableHLO op (not a fusion barrier: an optimization barrier for one
    failed every call on vulkan, test_loop_fusion_barriers), computes scalars from constants
    alone."""
    return op.name.startswith("stablehlo.") and op.name not in (CONSTANT, BARRIER) and \
        len(op.operands) > 0 and \
        len(op.results) > 0 and len(op.regions) == 0 and \
        all(isinstance(v, ir.OpResult) and v.owner.name == CONSTANT for v in op.operands) and \
        all(_is_scalar(r.type) for r in op.results)


def _read_constants_through_barrier(op: ir.Operation) -> None:
    with ir.InsertionPoint(op), op.location:
        copies = [v.owner.operation.clone().results[0] for v in op.operands]
        fenced = extras.optimization_barrier(copies)
    for i, value in enumerate(fenced):
        op.operands[i] = value


def _of_constants(value: ir.Value, known: dict) -> bool:
    """Whether `value` is computed from constants alone: no block argument and no barrier
    result reaches it (through operands and values its regions capture)."""
    stack = [value]
    while stack:
        v = stack[-1]
        if v in known:
            stack.pop()
            continue
        if not isinstance(v, ir.OpResult) or v.owner.name == BARRIER:
            known[v] = False
            stack.pop()
            continue
        op = v.owner.operation
        inputs = list(op.operands) + _captured(op)
        pending = [u for u in inputs if u not in known]
        if pending:
            stack.extend(pending)
            continue
        known[v] = all(known[u] for u in inputs)
        stack.pop()
    return known[value]


def _captured(op: ir.Operation) -> list[ir.Value]:
    """Values defined outside `op` that its regions read."""
    inner = {id(o) for o in nested_ops(op)}
    return [v for o in nested_ops(op) if o != op for v in o.operands
            if not (isinstance(v, ir.OpResult) and id(v.owner.operation) in inner)
            and not (isinstance(v, ir.BlockArgument) and _block_in(v.owner, op))]


def _block_in(block: ir.Block, op: ir.Operation) -> bool:
    parent = block.owner
    while parent is not None:
        if parent == op:
            return True
        parent = parent.parent
    return False


def _read_elsewhere(value: ir.Value, update: ir.Operation) -> bool:
    """Whether an op other than `update` reads `value`, which `update` reads once (a scatter of
    a value into itself through a barrier crashed IREE's vulkan compile: seed 62 program
    179)."""
    readers = [use.owner.operation for use in value.uses]
    return readers.count(update) == 1 and len(readers) > 1


def _read_through_barrier(value: ir.Value) -> None:
    """Every reader of `value` reads it through one barrier placed after its definition."""
    readers = [(use.owner, use.operand_number) for use in value.uses]
    with ir.InsertionPoint.after(value.owner), value.owner.location:
        fenced = extras.optimization_barrier([value])[0]
    for reader, index in readers:
        reader.operands[index] = fenced


@dataclasses.dataclass
class BarrierConstantExpressions(Pass):
    """Read scalars of constants and updated values of constants through barriers."""

    NAME = "shlo-barrier-constant-expressions"

    def run(self, op: ir.Operation) -> None:
        for found in [o.operation for o in nested_ops(op) if _scalar_of_constants(o.operation)]:
            _read_constants_through_barrier(found)
        known: dict = {}
        updated = []
        for found in nested_ops(op):
            if found.name in IN_PLACE:
                found = found.operation
                for value in IN_PLACE[found.name](found):
                    if value not in updated and _read_elsewhere(value, found) and \
                            _of_constants(value, known):
                        updated.append(value)
        for value in updated:
            _read_through_barrier(value)
