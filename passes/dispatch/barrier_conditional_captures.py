"""shlo-barrier-conditional-captures: tensors a conditional reads from outside, read through an
optimization barrier before it.

IREE 3.13's stream scheduler does not count a tensor that only an `if`/`case` region reads as
an input of that conditional. When two conditionals follow each other (jax: a `lax.cond`,
then a `lax.switch` of its result), it put the dispatch that computes such a tensor in the
same execution partition as a dispatch after them, which waits for the conditionals, and
stopped: "failed to schedule execution partitions without cyclic dependencies" (every
target; docs/iree_gaps.md#shlo-barrier-conditional-captures). The pass makes the conditional
read each such tensor through one `stablehlo.optimization_barrier` in front of it: IREE waits
for the tensors there, as it waits for the conditional's predicate anyway; the ops after the
conditional read the tensors themselves. Statically shaped tensors of rank 1 or more that a
non-constant op computes (lib's `captures`); function arguments and block arguments stay as
they are.

`in-loops=false` (Vulkan) leaves conditionals inside while loops alone: there a program that
IREE compiled only with the barrier came back wrong on lavapipe, and a compile error is
better than a wrong answer.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, is_inside, nested_ops
from .barrier_loop_captures import captures

_CONDITIONALS = ("stablehlo.if", "stablehlo.case")


def _in_loop(op: ir.Operation) -> bool:
    parent = op.operation.parent
    while parent is not None:
        if parent.name == "stablehlo.while":
            return True
        parent = parent.operation.parent
    return False


def _barrier(conditional: ir.Operation) -> None:
    read = captures(conditional)
    if read:
        extras.fence_readers(read, conditional, extras.optimization_barrier, before=True,
                             reads=lambda user: user != conditional
                             and is_inside(user, conditional))


@dataclasses.dataclass
class BarrierConditionalCaptures(Pass):
    """Make if/case ops read the tensors they capture through an optimization barrier."""

    NAME = "shlo-barrier-conditional-captures"
    in_loops: bool = True       # false: leave conditionals inside while loops alone (Vulkan)

    def run(self, op: ir.Operation) -> None:
        for conditional in nested_ops(op, "stablehlo."):
            if conditional.name in _CONDITIONALS and (self.in_loops
                                                      or not _in_loop(conditional)):
                _barrier(conditional.operation)
