"""shlo-copy-updated-operands: an operand that a dynamic_update_slice, scatter or sort updates
in place, and that another op also reads, is updated as a copy made at run time:
`select(broadcast(true), value, 0)`, `true` a constant read through an
`optimization_barrier` at the top of the function.

IREE updates such operands in place and schedules the other readers by their data alone:
through the reshapes its dispatch formation puts between a dispatch's result and the update,
it missed that a reader must run before the update and ran it after, on the updated buffer.
`y = x @ x.T; return abs(y), x * 2, dynamic_update_slice(y, u, i)` came back with abs(y)
wrong in the updated rows (cpu), `y = cumsum(x); return abs(y), x.astype(f32), sort(y)` with
abs(y) sorted (cpu and vulkan), silently, also without shlo's passes (fuzz seed 165 program
223; docs/iree_gaps.md#shlo-copy-updated-operands). The copy is a value no other op reads, so
updating it in place is safe; IREE cannot fold the select (its predicate is a run-time
value). Values of constants alone are covered too: IREE cloned the dispatch of such a value
where it needed a copy, and the clone came out wrong (`a = 2 * iota`, `return a,
dynamic_update_slice(a, x, i)`). Function and loop arguments are left alone (IREE copies a
function's argument it updates; a loop's carried value has its own buffer), so are values of
run-time sizes.
"""
from __future__ import annotations

import dataclasses
import functools

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, in_block, nested_ops
from ..lib import builders as extras
from ..lib.expr import is_complex

# op -> the operands it updates in place
IN_PLACE = {"stablehlo.dynamic_update_slice": lambda op: [0],
            "stablehlo.scatter": lambda op: list(range(len(op.results))),
            "stablehlo.sort": lambda op: list(range(len(op.operands)))}


def function_body_op(op: ir.Operation) -> ir.Operation:
    """The op of the function's body that holds `op` (or is it)."""
    while op.parent is not None and op.parent.name != "func.func":
        op = op.parent
    return op


def run_time_true(at: ir.Operation, trues: dict) -> ir.Value:
    """A tensor<i1> true that IREE cannot fold: a constant read through an
    optimization_barrier at the top of the function that holds `at` (one per function,
    kept in `trues`)."""
    function = function_body_op(at).parent
    if function not in trues:
        first = function.regions[0].blocks[0].operations[0]
        with ir.InsertionPoint(first), at.location:
            constant = stablehlo.constant(True, result_type=ir.RankedTensorType.get(
                [], ir.IntegerType.get_signless(1)))
            trues[function] = extras.optimization_barrier([constant])[0]
    return trues[function]


def run_time_copy(value: ir.Value, at: ir.Operation, trues: dict) -> ir.Value:
    """`value` copied at run time (`selected_at_run_time`) at the insertion point, by the
    run-time true of the function that holds `at`; each further copy of the same value by a
    true of its own (the k-th: a constant k read through a barrier, compared with 0). Two
    equal copies are one value to IREE's CSE: two scatters into copies of one zero buffer
    then updated one buffer, each result the other's, silently (fuzz seed 186 program 182)."""
    copies = trues.setdefault("copies", {})
    k = copies[value] = copies.get(value, -1) + 1
    true = run_time_true(at, trues)
    if k:
        with ir.InsertionPoint(true.owner.operation.block.operations[0]), at.location:
            i32 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))
            fenced = extras.optimization_barrier([stablehlo.constant(k, result_type=i32)])[0]
            true = stablehlo.compare(fenced, stablehlo.constant(0, result_type=i32),
                                     comparison_direction="NE")
    return selected_at_run_time(value, true)


def selected_at_run_time(value: ir.Value, true: ir.Value) -> ir.Value:
    """select(broadcast(`true`), value, zeros): `value`, computed by IREE into a buffer of its
    own (a scalar predicate would only pick one of two buffers on the host)."""
    t = ir.RankedTensorType(value.type)
    zeros = stablehlo.constant(0j if is_complex(t.element_type) else 0, result_type=t)
    trues = stablehlo.broadcast_in_dim(
        true, broadcast_dimensions=[],
        result_type=ir.RankedTensorType.get(t.shape, ir.IntegerType.get_signless(1)))
    return stablehlo.select(trues, value, zeros)


def _inputs_of(update: ir.Operation, budget: int = 4096) -> set | None:
    """The ops of `update`'s block that compute its operands, transitively (None past
    `budget` ops): each runs before `update` whatever the schedule."""
    block, seen, stack = update.block, set(), [update]
    while stack:
        op = stack.pop()
        for value in op.operands:
            producer = value.owner
            if not isinstance(producer, (ir.Operation, ir.OpView)):
                continue
            producer = in_block(producer.operation, block)
            if producer is not None and producer not in seen:
                seen.add(producer)
                if len(seen) > budget:
                    return None
                stack.append(producer)
    return seen


def _read_elsewhere(value: ir.Value, update: ir.Operation, index: int, inputs) -> bool:
    """Whether an op other than `update` (at operand `index`) reads `value` that need not run
    before it: one that computes an input of `update` (`inputs()`, `_inputs_of(update)`; a
    copy of the updates that shlo-copy-overlapping-updates made) runs before it anyway."""
    readers = [use.owner.operation for use in value.uses
               if use.owner.operation != update or use.operand_number != index]
    if not readers:
        return False
    before = inputs()
    return before is None or any(
        reader == update or in_block(reader, update.block) not in before
        for reader in readers)


def _copied(value: ir.Value) -> bool:
    """Whether `value` is one the pass copies: a computed static tensor with elements."""
    t = value.type.maybe_downcast()
    return (isinstance(value, ir.OpResult) and isinstance(t, ir.RankedTensorType)
            and t.has_static_shape and 0 not in t.shape
            and value.owner.name != "stablehlo.constant")


@dataclasses.dataclass
class CopyUpdatedOperands(Pass):
    """Give each in-place update (dynamic_update_slice, scatter, sort) of a value that another
    op reads a run-time copy of it."""

    NAME = "shlo-copy-updated-operands"

    def run(self, op: ir.Operation) -> None:
        trues: dict = {}
        for update in [o.operation for o in nested_ops(op) if o.name in IN_PLACE]:
            inputs = functools.cache(functools.partial(_inputs_of, update))  # one walk an update
            for index in IN_PLACE[update.name](update):
                value = update.operands[index]
                if _copied(value) and _read_elsewhere(value, update, index, inputs):
                    with ir.InsertionPoint(update), update.location:
                        update.operands[index] = run_time_copy(value, update, trues)
