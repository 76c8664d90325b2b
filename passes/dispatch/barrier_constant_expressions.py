"""shlo-barrier-constant-expressions: values computed from constants alone, in the forms IREE
computes wrongly, made to depend on a value read through a `stablehlo.optimization_barrier`.

- A complex scalar op (results of at most one element) whose operands are all constants
  reads copies of its constants through a barrier. IREE grouped such scalars into one
  dispatch of several results, hoisted it into a module initializer and gave every global
  the first result: `z.sum(), z.prod()` of complex64 on vulkan started the product from
  (0, 0), silently; scalars of other sizes failed to compile or to run (fuzz seed 117
  program 325). Real scalars IREE folds (fencing or folding them here broke other programs).
- (A computed value of constants alone that an op updates in place and another op reads is
  shlo-copy-updated-operands': IREE returned `a = 2 * iota` of 512K updated, and its update as
  zeros, for `return a, dynamic_update_slice(a, x, i)`.)
- With `loops=true` (the Vulkan target), a while loop of constants alone (its operands and
  every value its regions read from outside) carries its largest value selected by a
  run-time `true` (`copy_updated_operands.run_time_copy`). IREE hoisted such a loop
  into a module initializer whose stream timepoints never settled: "maximum iteration count
  exceeded in fixed point pipeline" for `jnp.zeros(131584).at[::2].add(1)`, whose scatter
  shlo-split-long-reduce cut into a loop of chunks (fuzz seed 99 program 13); cpu compiled
  it.

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

from ..base import Pass, defining_op, from_constants, is_inside, nested_ops, on_constants
from .copy_updated_operands import function_body_op, run_time_copy
from ..lib import builders as extras
from ..lib.expr import element_of, is_complex

BARRIER = "stablehlo.optimization_barrier"


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


def _read_constants_through_barrier(op: ir.Operation) -> None:
    with ir.InsertionPoint(function_body_op(op)), op.location:
        copies = [v.owner.operation.clone().results[0] for v in op.operands]
        fenced = extras.optimization_barrier(copies)
    for i, value in enumerate(fenced):
        op.operands[i] = value


def _outside_reads(loop: ir.Operation) -> list[ir.Value] | None:
    """The values defined outside `loop` that its regions read; None where one is a block
    argument (a function's argument: no constant)."""
    found: list[ir.Value] = []
    arguments: list[ir.Value] = []

    def visit(o):
        for v in o.operands:
            producer = defining_op(v)
            if producer is None and not is_inside(ir.BlockArgument(v).owner.owner, loop):
                arguments.append(v)
            elif producer is not None and not is_inside(producer, loop):
                found.append(v)
        return ir.WalkResult.ADVANCE
    for region in loop.regions:
        for block in region.blocks:
            for o in block.operations:
                o.walk(visit)
    return None if arguments else found


def _loop_of_constants(loop: ir.Operation) -> bool:
    """Whether `loop` (a stablehlo.while) computes from constants alone."""
    reads = _outside_reads(loop)
    return reads is not None and from_constants([*loop.operands, *reads], regions=True)


def _largest_carried(loop: ir.Operation) -> int | None:
    """The place of the loop's largest carried tensor (None: no static tensor)."""
    sizes = {i: math.prod(t.shape) for i, t in
             ((i, v.type.maybe_downcast()) for i, v in enumerate(loop.operands))
             if isinstance(t, ir.RankedTensorType) and t.has_static_shape}
    return max(sizes, key=sizes.__getitem__) if sizes else None


@dataclasses.dataclass
class BarrierConstantExpressions(Pass):
    """Read the constants of complex scalars of constants through barriers; with loops=true,
    select a value each loop of constants carries by a run-time `true`."""

    NAME = "shlo-barrier-constant-expressions"
    loops: bool = False         # loops of constants carry a value selected at run time

    def run(self, op: ir.Operation) -> None:
        for found in [o.operation for o in nested_ops(op) if _scalar_of_constants(o.operation)]:
            _read_constants_through_barrier(found)
        if not self.loops:
            return
        trues: dict = {}
        for loop in [o.operation for o in nested_ops(op, "stablehlo.while")]:
            place = _largest_carried(loop) if _loop_of_constants(loop) else None
            if place is not None:
                with ir.InsertionPoint(loop), loop.location:
                    loop.operands[place] = run_time_copy(loop.operands[place], loop, trues)
