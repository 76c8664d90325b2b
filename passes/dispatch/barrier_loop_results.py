"""shlo-barrier-loop-results: the results of a while loop read through one barrier after it.

Two IREE failures (docs/iree_gaps.md#shlo-barrier-loop-results), both met in one f64 program
of jax's gammainc and betainc, go away when a loop's results are read through a
`stablehlo.optimization_barrier`:

- A carried value that only the loop's condition reads (a convergence flag: the body never
  reads it, nothing reads the loop's result) is dropped by the scf canonicalizer from the
  values the condition hands to the body, and IREE's stream conversion then assumes both
  regions take the same values. Read by the barrier, the result is used and the value stays.
  By default the pass fences the loops that carry such a value, and only those.
- Stream scheduling of the ops around the loops then finds a circular dependency; a barrier
  after every loop keeps the loops' consumers out of the partition of their producers.
  `every-loop=true` fences every loop.

The pass is not in the default pipeline: shlo.compile runs it (every-loop=true) on a module
that fails with either error and compiles it again (shlo.pipelines.cpu_tuning.RETRY_RULES).
Barriers after every loop make other loops slower, and the default mode in the pipeline made
IREE's compiler crash on jax's bf16 betainc.

Results of dynamic shape stay out of the barrier (IREE cannot compile it on them), and so do
tokens and tuples; a loop whose results nobody reads is left alone.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, nested_ops


def _static_tensor(value: ir.Value) -> bool:
    t = value.type.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape


def _condition_only(loop: ir.Operation) -> bool:
    """Whether the loop carries a value that neither its body nor anything after it reads."""
    body = loop.regions[1].blocks[0]
    return any(not list(argument.uses) and not list(result.uses)
               for argument, result in zip(body.arguments, loop.results))


def _fence_results(loop: ir.Operation) -> None:
    results = [r for r in loop.results if _static_tensor(r)]
    if not results or not any(list(r.uses) for r in loop.results):
        return
    with ir.InsertionPoint.after(loop), loop.location:
        fenced = extras.optimization_barrier(results)
    barrier = fenced[0].owner.operation
    for old, new in zip(results, fenced):
        for user, index in [(u.owner, u.operand_number) for u in old.uses]:
            if user.operation != barrier:
                user.operation.operands[index] = new


@dataclasses.dataclass
class BarrierLoopResults(Pass):
    """Read the static results of while loops that carry a value only their condition reads
    (every loop with every-loop=true) through one barrier after the loop."""

    NAME = "shlo-barrier-loop-results"
    every_loop: bool = False

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            loop = loop.operation
            if self.every_loop or _condition_only(loop):
                _fence_results(loop)
