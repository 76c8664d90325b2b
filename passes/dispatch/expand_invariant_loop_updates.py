"""shlo-expand-invariant-loop-updates: a dynamic_update_slice of a tensor a while loop does not
change, written as a select, so that IREE cannot update the tensor in place.

IREE updates the operand of a `dynamic_update_slice` in place when the operand is
invariant in an enclosing `stablehlo.while`: captured from outside the loop (also through a
reshape, or from an outer loop's body) or carried through the body unchanged, which is how jax
passes a closed-over array to `lax.fori_loop`. Every later iteration then reads the updated
tensor instead of the original one, a wrong result on CPU and Vulkan
(docs/iree_gaps.md#shlo-expand-invariant-loop-updates). The pass writes
such an update as what it computes,

    select(iota in [start, start + update size) along every dimension,
           dynamic_slice(pad(update, low = high = m), m - start),
           operand)        # m = operand size - update size, per dimension

with each start clamped as the spec clamps it. The tensor is read, never written, and the
cost is one pass over it, which an update of a tensor that must stay unchanged needs anyway.
Updates of a value the loop carries and changes (a scan's output buffer) stay in place, as
do updates outside loops and on dynamic shapes.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import is_inside
from ..lib.expr import Num, const, select
from ..op_rules import RulesPass

# Ops whose result IREE may make a view of their operand (or fold into it).
_VIEWS = frozenset({"stablehlo.reshape", "stablehlo.bitcast_convert", "stablehlo.transpose",
                    "stablehlo.broadcast_in_dim", "stablehlo.slice", "stablehlo.convert",
                    "stablehlo.optimization_barrier"})


def _root(value: ir.Value) -> ir.Value:
    """The value `value` may share its buffer with, following view-like ops back."""
    while not isinstance(value.owner, ir.Block) and value.owner.name in _VIEWS:
        op = value.owner
        value = op.operands[ir.OpResult(value).result_number
                            if op.name == "stablehlo.optimization_barrier" else 0]
    return value


def _invariant(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `loop` leaves `value` unchanged: defined outside it, or one of its body's
    arguments that the body returns as it is."""
    definer = value.owner.owner if isinstance(value.owner, ir.Block) else value.owner
    if not is_inside(definer, loop):
        return True
    if not isinstance(value.owner, ir.Block) or value.owner.owner.operation != loop:
        return False
    body = loop.regions[1].blocks[0]
    if value.owner != body:             # the condition's arguments: never updated there
        return True
    index = ir.BlockArgument(value).arg_number
    return body.operations[len(body.operations) - 1].operands[index] == value


def _loop_invariant_operand(op: ir.Operation) -> bool:
    root = _root(op.operands[0])
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        if parent.name == "stablehlo.while" and _invariant(root, parent):
            return True
        parent = parent.parent
    return False


def _expand(op: ir.Operation):
    operand, update, starts = op.operands[0], op.operands[1], list(op.operands[2:])
    shape = ir.RankedTensorType(operand.type).shape
    sizes = ir.RankedTensorType(update.type).shape
    if not ir.RankedTensorType(operand.type).has_static_shape or not _loop_invariant_operand(op):
        return None
    clamped = [Num(const(0, s) if n == m else stablehlo.clamp(const(0, s), s, const(n - m, s)))
               for s, n, m in zip(starts, shape, sizes)]
    element = ir.RankedTensorType(update.type).element_type
    zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], element))
    margins = [n - m for n, m in zip(shape, sizes)]
    padded = stablehlo.pad(update, zero, edge_padding_low=margins,
                           edge_padding_high=margins, interior_padding=[0] * len(shape))
    offsets = [(s.like(d) - s if d else s).value for d, s in zip(margins, clamped)]
    placed = stablehlo.dynamic_slice(padded, offsets, slice_sizes=shape)
    inside = None
    for dim, (start, n, m) in enumerate(zip(clamped, shape, sizes)):
        if n == m:
            continue
        index_type = ir.RankedTensorType.get(shape, start.element)
        index = Num(stablehlo.iota(iota_dimension=dim, result_type=index_type))
        first = Num(stablehlo.broadcast_in_dim(start.value, broadcast_dimensions=[],
                                               result_type=index_type))
        here = (index >= first) & (index < first + m)
        inside = here if inside is None else inside & here
    if inside is None:                  # the update covers the whole operand
        return [update]
    return [select(inside, Num(placed), Num(operand)).value]


@dataclasses.dataclass
class ExpandInvariantLoopUpdates(RulesPass):
    """Write dynamic_update_slice of a tensor a while loop leaves unchanged as a select."""

    NAME = "shlo-expand-invariant-loop-updates"
    RULES = {"stablehlo.dynamic_update_slice": _expand}
