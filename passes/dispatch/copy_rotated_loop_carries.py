"""shlo-copy-rotated-loop-carries: a while loop's body returns a run-time copy of each carried
value it hands on in another value's place.

jax.random's threefry loop hands its keys round from place to place each trip (ks[1], ks[2],
ks[0]), and IREE 3.13 carries those buffers round as they are: in training steps and forward
passes with dropout (beside cholesky, scatter, embedding, a switch, a scan), a Vulkan call
failed every time with "indirect buffer reference slot 0 is out range of the declared binding
capacity" (a null buffer reached hal.command_buffer.copy_buffer: shlo-fuzz --jax seed 5
programs 84 and 87, seed 6 programs 50 and 69; docs/iree_gaps.md#shlo-copy-rotated-loop-carries).
Whether it failed depended on unrelated barriers elsewhere in the function. Returned as
select(broadcast(true), x, 0), the true read through a barrier at the function's top
(`copy_updated_operands.run_time_copy`), each such value gets a buffer of its own every
trip, and every one of those programs runs right. A value returned in its own place is
loop-invariant and stays as it is; so do values of dynamic shape.

The pass runs after the targets' passes: the CPU's shlo-unroll-scan-loops replaces short
counted loops (the threefry loop's 5 trips) by their bodies repeated, which leaves nothing to
rotate, and IREE's CPU backend computed that unrolled threefry wrong once it held these copies
(docs/iree_gaps.md#shlo-copy-rotated-loop-carries).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, is_static_tensor, nested_ops
from .copy_updated_operands import run_time_copy


def rotated_places(loop: ir.Operation) -> list[int]:
    """The places whose returned value is, as it is, the body's argument of another place."""
    body = loop.regions[1].blocks[0]
    returned = list(body.operations)[-1].operands
    return [place for place, r in enumerate(returned)
            if isinstance(r.owner, ir.Block) and r.owner == body and r.arg_number != place]


@dataclasses.dataclass
class CopyRotatedLoopCarries(Pass):
    """Make each while loop's body return a run-time copy of every statically shaped carried
    value it returns in another value's place."""

    NAME = "shlo-copy-rotated-loop-carries"

    def run(self, op: ir.Operation) -> None:
        trues: dict = {}
        for loop in nested_ops(op, "stablehlo.while"):
            loop = loop.operation
            terminator = list(loop.regions[1].blocks[0].operations)[-1].operation
            for place in rotated_places(loop):
                value = terminator.operands[place]
                if is_static_tensor(value):
                    with ir.InsertionPoint(terminator), terminator.location:
                        terminator.operands[place] = run_time_copy(value, loop, trues)
