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
they are. A branch's return of a fenced capture as it is becomes a run-time copy of it
(`copy_updated_operands.run_time_copy`): returned fenced, Vulkan's runtime failed;
returned as it is, a while loop with a run-time bound after the conditional failed every call
on cpu and vulkan (IREE's transient buffers, fuzz seed 170 program 129). So does a branch's
return of any other computed static tensor from outside, of rank 0 too, that no branch reads:
the conditional's result was that tensor's buffer, which IREE deallocated after the result's
last use while the tensor was still to be read (Vulkan, every call, with IREE alone too:
'copy source buffer has been queued for deallocation', fuzz seed 178 program 197). And so
does a branch's return of a static tensor the branch computes: IREE merged `x + x` in a
branch with an equal `reshape(x) + reshape(x)` before the conditional, and the same followed
(fuzz seed 190 program 115).

Conditionals inside while loops stay as they are: a loop body that IREE compiled only with
the barrier (or with a fusion barrier) came back wrong on the CPU and on Vulkan, and a
compile error is better than a wrong answer (cheap ones are selects by then:
shlo-select-loop-conditionals). The pass runs after the targets' passes, so
the CPU's fully unrolled short loops (shlo-unroll-scan-loops) get their barriers.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, is_inside, is_static_tensor, nested_ops
from ..lib.loops import CONDITIONALS, inside_loop
from .barrier_loop_captures import captures, computed_outside
from .copy_updated_operands import run_time_copy


def _copy_returned(conditional: ir.Operation, fenced: dict, trues: dict) -> None:
    """Make each branch that returns a computed static tensor from outside as it is return a
    run-time copy of it: of its barrier's result where it is fenced (`fenced`: capture ->
    barrier result), else of the tensor itself (returned as it is, the conditional's result is
    the tensor's buffer, which IREE deallocated after the result's last use while the tensor
    was still to be read: Vulkan, 'copy source buffer has been queued for deallocation', every
    call; shlo-fuzz seed 178 program 197)."""
    for region in conditional.regions:
        ret = list(region.blocks[0].operations)[-1].operation
        for i, value in enumerate(ret.operands):
            if value in fenced:
                copied = fenced[value]
            elif is_static_tensor(value) and (computed_outside(value, conditional)
                                              or _computed_in(value, region)):
                copied = value
            else:
                continue
            with ir.InsertionPoint(ret), ret.location:
                ret.operands[i] = run_time_copy(copied, conditional, trues)


def _computed_in(value: ir.Value, region: ir.Region) -> bool:
    """Whether a computing op (not a constant) of `region` (a branch) defines `value`: IREE
    may merge its dispatch with an equal one outside the conditional (`x + x` in a branch,
    `reshape(x) + reshape(x)` before it), whose buffer then is the conditional's result."""
    return (isinstance(value, ir.OpResult) and value.owner.name != "stablehlo.constant"
            and value.owner.operation.block == region.blocks[0])


def _barrier(conditional: ir.Operation) -> dict:
    """Fence the captures a branch reads other than to return them: capture -> the barrier's
    result."""
    def reads(user: ir.Operation) -> bool:
        """Whether `user` reads a capture inside `conditional` other than to return it."""
        return user != conditional and is_inside(user, conditional) and not (
            user.name == "stablehlo.return" and user.parent == conditional)
    read = [v for v in captures(conditional)
            if any(reads(use.owner.operation) for use in v.uses)]
    if not read:
        return {}
    return dict(zip(read, extras.fence_readers(read, conditional, extras.optimization_barrier,
                                               before=True, reads=reads)))


@dataclasses.dataclass
class BarrierConditionalCaptures(Pass):
    """Make if/case ops outside loops read the tensors they capture through an optimization
    barrier."""

    NAME = "shlo-barrier-conditional-captures"

    def run(self, op: ir.Operation) -> None:
        trues: dict = {}
        for conditional in nested_ops(op, "stablehlo."):
            if conditional.name in CONDITIONALS and not inside_loop(conditional):
                _copy_returned(conditional.operation, _barrier(conditional.operation), trues)
