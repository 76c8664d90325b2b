"""shlo-barrier-loop-results: every result of a while loop read through one barrier after it.

Two IREE 3.13 failures, both met in one f64 program of jax's gammainc and betainc (each alone
compiled), go away when the loop's results are read through a `stablehlo.optimization_barrier`:

- A carried value that only the loop's condition reads (a convergence flag: the body never
  reads it, nothing reads the loop's result) is dropped by the scf canonicalizer from the
  values the condition hands to the body, and IREE's stream conversion then assumes both
  regions take the same values: "'scf.while' op along control flow edge from Operation
  scf.condition to Region #1: region branch point has 8 operands, but region successor needs
  10 inputs". Read by the barrier, the result is used and the value stays.
- Stream scheduling of the ops around such loops stopped with "circular dependency: input
  operation uses partition output"; the barrier keeps the loop's consumers out of the
  partition of its producers.

The loop's results are buffers of their own anyway; the barrier neither copies nor computes.
Results of dynamic shape stay as they are (IREE cannot compile the barrier on them), and so do
tokens and tuples.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from . import chlo_stablehlo_extras as extras
from .base import Pass, nested_ops


def _static_tensor(value: ir.Value) -> bool:
    t = value.type.maybe_downcast()
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape


def _fence_results(loop: ir.Operation) -> None:
    loop = loop.operation
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
    """Read every static result of a while loop through one barrier after the loop."""

    NAME = "shlo-barrier-loop-results"

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            _fence_results(loop)
