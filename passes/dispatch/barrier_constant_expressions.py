"""shlo-barrier-constant-expressions: values computed from constants alone, in the two forms IREE
computes wrongly, made to depend on a value read through a `stablehlo.optimization_barrier`.

- A complex scalar op (results of at most one element) whose operands are all constants
  reads copies of its constants through a barrier. IREE grouped such scalars into one
  dispatch of several results, hoisted it into a module initializer and gave every global
  the first result: `z.sum(), z.prod()` of complex64 on vulkan started the product from
  (0, 0), silently; scalars of other sizes failed to compile or to run (fuzz seed 117
  program 325). Real scalars IREE folds (fencing or folding them here broke other programs).
- A computed value of constants alone (`passes.base.from_constants`, not a constant) larger
  than IREE hoists (HOISTED_BYTES) that a dynamic_update_slice, scatter or sort updates in
  place and another op reads is selected by a run-time `true` (a constant through a barrier)
  over zeros, and every reader reads the selection. IREE returned `a = 2 * iota` of 512K
  elements updated, and its update as zeros, for `return a, dynamic_update_slice(a, x, i)`,
  on cpu and vulkan. (Reading the value itself through a barrier made IREE scatter into a
  hoisted global instead: a max-pool gradient wrong from the second call, seed 145 program
  267.)

IREE clones a dispatch that reads no buffer where it needs a copy of its result, and the
clones come out wrong (docs/iree_gaps.md#shlo-barrier-constant-expressions). With a barrier's
value among its operands, a value is no constant expression to IREE and its dispatch reads a
buffer. The barriers go before the op of the function's body that holds the op: inside a
loop, an optimization_barrier of constants failed every call on vulkan ('indirect buffer
reference slot 0 is out range', test_transformer_decode_on_vulkan_keeps_its_device).
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, from_constants, nested_ops, on_constants
from ..lib import builders as extras
from ..lib.expr import bit_width, element_of, is_complex

BARRIER = "stablehlo.optimization_barrier"
# op -> the operands it updates in place
IN_PLACE = {"stablehlo.dynamic_update_slice": lambda op: [op.operands[0]],
            "stablehlo.scatter": lambda op: list(op.operands[:len(op.results)]),
            "stablehlo.sort": lambda op: list(op.operands)}
# IREE hoists a value of constants up to this size into a global (its const-expr hoisting
# threshold, 1 MiB) and copies it right
HOISTED_BYTES = 1 << 20


def _is_scalar(t: ir.Type) -> bool:
    """Whether `t` is a static tensor of at most one element (IREE's scalar dispatch limit)."""
    t = t.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and \
        all(d <= 1 for d in t.shape)


def _scalar_of_constants(op: ir.Operation) -> bool:
    """Whether `op`, a StableHLO op (`on_constants`: not a fusion barrier, an optimization
    barrier for one failed every call on vulkan, test_loop_fusion_barriers) without regions,
    computes a complex scalar from constants alone."""
    return op.name != BARRIER and len(op.regions) == 0 and on_constants(op) and \
        _is_scalar(op.results[0].type) and is_complex(element_of(op.results[0]))


def _in_function_body(op: ir.Operation) -> ir.Operation:
    """The op of the function's body that holds `op` (or is it)."""
    while op.parent is not None and op.parent.name != "func.func":
        op = op.parent
    return op


def _read_constants_through_barrier(op: ir.Operation) -> None:
    with ir.InsertionPoint(_in_function_body(op)), op.location:
        copies = [v.owner.operation.clone().results[0] for v in op.operands]
        fenced = extras.optimization_barrier(copies)
    for i, value in enumerate(fenced):
        op.operands[i] = value


def _computed(value: ir.Value) -> bool:
    """Whether an op other than a constant computes `value`, of more than HOISTED_BYTES (IREE
    copies a constant right: a chlo.scan's outputs came back mixed when constants were
    included)."""
    t = value.type.maybe_downcast()
    if not (isinstance(value, ir.OpResult) and value.owner.name != "stablehlo.constant"
            and isinstance(t, ir.RankedTensorType) and t.has_static_shape):
        return False
    element = t.element_type
    bits = 2 * bit_width(ir.ComplexType(element).element_type) if is_complex(element) \
        else bit_width(element)
    return math.prod(t.shape) * max(bits, 8) // 8 > HOISTED_BYTES


def _read_elsewhere(value: ir.Value, update: ir.Operation) -> bool:
    """Whether an op other than `update` reads `value`, which `update` reads once."""
    readers = [use.owner.operation for use in value.uses]
    return readers.count(update) == 1 and len(readers) > 1


def _updated_values_of_constants(root: ir.Operation) -> list[ir.Value]:
    found: list[ir.Value] = []
    for op in nested_ops(root):
        if op.name in IN_PLACE:
            op = op.operation
            for value in IN_PLACE[op.name](op):
                if value not in found and _read_elsewhere(value, op) and _computed(value) \
                        and from_constants([value]):
                    found.append(value)
    return found


def _computed_at_run_time(value: ir.Value, true: ir.Value) -> None:
    """Every reader of `value` reads select(`true`, value, zeros) instead."""
    readers = [(use.owner, use.operand_number) for use in value.uses]
    t = ir.RankedTensorType(value.type)
    with ir.InsertionPoint.after(value.owner), value.owner.location:
        zeros = stablehlo.constant(0j if is_complex(t.element_type) else 0, result_type=t)
        trues = stablehlo.broadcast_in_dim(     # (a scalar one selects a buffer on the host)
            true, broadcast_dimensions=[],
            result_type=ir.RankedTensorType.get(t.shape, ir.IntegerType.get_signless(1)))
        chosen = stablehlo.select(trues, value, zeros)
    for reader, index in readers:
        reader.operands[index] = chosen


@dataclasses.dataclass
class BarrierConstantExpressions(Pass):
    """Read the constants of complex scalars of constants through barriers; select updated
    values of constants by a run-time `true`."""

    NAME = "shlo-barrier-constant-expressions"

    def run(self, op: ir.Operation) -> None:
        for found in [o.operation for o in nested_ops(op) if _scalar_of_constants(o.operation)]:
            _read_constants_through_barrier(found)
        true: dict = {}         # function body op -> its run-time true
        for value in _updated_values_of_constants(op):
            body = _in_function_body(value.owner.operation)
            function = body.parent
            if function not in true:
                first = function.regions[0].blocks[0].operations[0]
                with ir.InsertionPoint(first), value.owner.location:
                    constant = stablehlo.constant(True, result_type=ir.RankedTensorType.get(
                        [], ir.IntegerType.get_signless(1)))
                    true[function] = extras.optimization_barrier([constant])[0]
            _computed_at_run_time(value, true[function])
