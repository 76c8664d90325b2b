"""shlo-loop-fusion-barriers: the fences inside while, if and case regions as fusion barriers,
not host waits.

A `stablehlo.optimization_barrier` in a loop body makes IREE 3.13 wait on the host there (its
util.optimization_barrier on a stream resource becomes a stream.timepoint.await), which splits
each trip into several command buffers with a host wait between. The loop's carried values then
leave the body in different allocations while they enter it in one (values computed together
before the loop share an allocation), so the branch into the loop passes one buffer for two
block arguments, and IREE's VM register allocation can move that buffer out of the register a
block argument was coalesced with: the loop's copy of it reads a null buffer ("indirect buffer
reference slot 0 is out range of the declared binding capacity of the command buffer 0", in
hal.command_buffer.copy_buffer;
docs/iree_gaps.md#fences-in-loop-bodies-shlo-loop-fusion-barriers). The pass rewrites each
barrier there whose operands the same region computes, statically shaped and neither f64 nor
complex, into one fusion barrier per operand (`lib.builders.fusion_barrier`): the same
fence (computed in dispatches of its own), without the host wait. Barriers of block arguments,
of captured values and of while/if/case results (shlo-barrier-loop-results' keep their
purpose), of f64 or complex values (fusion barriers between a complex128 SVD's real parts
failed IREE's stream scheduling), of scalars (the one-element fences) and of dynamic shapes
stay.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras
from ..lib.expr import is_complex

_KEPT_PRODUCERS = frozenset({"stablehlo.while", "stablehlo.if", "stablehlo.case",
                             "stablehlo.optimization_barrier"})


def _fusable(value: ir.Value, block: ir.Block) -> bool:
    """Whether `value`, read by a barrier in `block`, can pass a fusion barrier instead: an
    op of `block` computes it (not a loop, if, case or barrier), static shape of rank 1 or
    more (a scalar barrier is shlo-fence-scalar-scatter-updates' fence of one element, which
    IREE fails as a fusion barrier: 'expected rank to be smaller or equal'), not f64 or
    complex."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name in _KEPT_PRODUCERS or \
            owner.operation.block != block:
        return False
    t = value.type
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape or \
            t.rank == 0:                                # shlo's scalar fences of one element
        return False
    element = t.element_type.maybe_downcast()
    return not isinstance(element, ir.F64Type) and not is_complex(element)


@dataclasses.dataclass
class LoopFusionBarriers(Pass):
    """Rewrite optimization_barriers inside while/if/case regions into fusion barriers."""

    NAME = "shlo-loop-fusion-barriers"

    def run(self, op: ir.Operation) -> None:
        for barrier in nested_ops(op, "stablehlo.optimization_barrier"):
            block = barrier.block
            if not extras.in_control_flow(block.owner) or \
                    not all(_fusable(v, block) for v in barrier.operands):
                continue
            with ir.InsertionPoint(barrier), barrier.location:
                fenced = [extras.fusion_barrier(v) for v in barrier.operands]
            for result, new in zip(barrier.results, fenced):
                result.replace_all_uses_with(new)
            barrier.erase()
