"""shlo-barrier-constant-expressions: values computed from constants alone, in the two forms IREE
computes wrongly, read through `stablehlo.optimization_barrier`s.

- A complex scalar op (results of at most one element) whose operands are all constants
  reads copies of its constants through a barrier. IREE grouped such scalars into one
  dispatch of several results, hoisted it into a module initializer and gave every global
  the first result: `z.sum(), z.prod()` of complex64 on vulkan started the product from
  (0, 0), silently; scalars of other sizes failed to compile or to run (fuzz seed 117
  program 325). Real scalars IREE folds (fencing or folding them here broke other programs).
- A computed value of constants alone (`passes.base.from_constants`, not a constant) larger
  than IREE hoists (HOISTED_BYTES) that a dynamic_update_slice, scatter or sort updates in
  place and another op reads: every reader reads it through one barrier. IREE returned
  `a = 2 * iota` of 512K elements updated, and its update as zeros, for
  `return a, dynamic_update_slice(a, x, i)`, on cpu and vulkan.

IREE clones a dispatch that reads no buffer where it needs a copy of its result, and the
clones come out wrong (docs/iree_gaps.md#shlo-barrier-constant-expressions). Through a
barrier, a scalar is no constant expression to IREE and its dispatch reads a buffer; an
updated value is copied from the barrier's result.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ..base import Pass, from_constants, nested_ops
from ..lib import builders as extras
from ..lib.expr import bit_width, element_of, is_complex

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
    failed every call on vulkan, test_loop_fusion_barriers), computes complex scalars from
    constants alone."""
    return op.name.startswith("stablehlo.") and op.name not in (CONSTANT, BARRIER) and \
        len(op.operands) > 0 and \
        len(op.results) > 0 and len(op.regions) == 0 and \
        all(isinstance(v, ir.OpResult) and v.owner.name == CONSTANT for v in op.operands) and \
        all(_is_scalar(r.type) and is_complex(element_of(r)) for r in op.results)


def _read_constants_through_barrier(op: ir.Operation) -> None:
    """The barrier goes before the op of the function's body that holds `op`: inside a loop,
    an optimization_barrier of constants failed every call on vulkan ('indirect buffer
    reference slot 0 is out range', test_transformer_decode_on_vulkan_keeps_its_device)."""
    where = op
    while where.parent is not None and where.parent.name != "func.func":
        where = where.parent
    with ir.InsertionPoint(where), op.location:
        copies = [v.owner.operation.clone().results[0] for v in op.operands]
        fenced = extras.optimization_barrier(copies)
    for i, value in enumerate(fenced):
        op.operands[i] = value


# IREE hoists a value of constants up to this size into a global (its const-expr hoisting
# threshold, 1 MiB) and copies it right; through a barrier it scattered into the global itself,
# and every later call read the scattered values (seed 139 program 124)
HOISTED_BYTES = 1 << 20


def _computed(value: ir.Value) -> bool:
    """Whether an op other than a constant computes `value`, of more than HOISTED_BYTES (IREE
    copies a constant right: its updates in place by several ops went wrong through a
    barrier, a chlo.scan's outputs)."""
    t = value.type.maybe_downcast()
    if not (isinstance(value, ir.OpResult) and value.owner.name != CONSTANT
            and isinstance(t, ir.RankedTensorType) and t.has_static_shape):
        return False
    element = t.element_type
    bits = 2 * bit_width(ir.ComplexType(element).element_type) if is_complex(element) \
        else bit_width(element)
    return math.prod(t.shape) * max(bits, 8) // 8 > HOISTED_BYTES


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
        updated = []
        for found in nested_ops(op):
            if found.name in IN_PLACE:
                found = found.operation
                for value in IN_PLACE[found.name](found):
                    if value not in updated and _read_elsewhere(value, found) and \
                            _computed(value) and from_constants([value]):
                        updated.append(value)
        for value in updated:
            _read_through_barrier(value)
