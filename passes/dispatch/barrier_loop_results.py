"""shlo-barrier-loop-results: the results of a while loop read through one barrier after it.

Three IREE failures (docs/iree_gaps.md#shlo-barrier-loop-results) go away when a loop's
results are read through a `stablehlo.optimization_barrier`:

- At run time, IREE's automatic reference counting (iree-stream-automatic-reference-counting)
  deallocates a loop's results after their last use as if the loop had allocated them, but a
  loop that runs zero trips returns its operands: the caller's argument, or a transient
  allocation that values read after the loop still live in ("transient buffer has not been
  committed" in hal.device.queue.dealloca on cpu, "has no staged Vulkan backing" on vulkan, in
  30-100 % of runs). Read by a barrier, the results are not deallocated. By default (in the
  default pipeline) the pass fences the loops whose results may be their operands: loops whose
  condition does not fold to true on their constant operands (lib.loops.first_trip_runs: a
  counter from a constant start below a constant bound, any step, as shlo-lower-sort's loops
  step by their unrolled count; and a convergence flag carried from true beside it),
  and loops whose body returns a carried value in another one's place. Counted loops (jax's
  scan and fori_loop) stay as they are, but for one whose result another loop of the
  function's body takes as an operand (`_feeds_a_loop`): two stacked `lax.scan` RNNs of 16
  rows (the cpu runs them 16 steps a trip, shlo-unroll-scan-loops) failed every call on the
  cpu ("indirect buffer reference slot 0 is out range", found by shlo-fuzz --jax), also with
  IREE's indirect command buffers off; fenced between the loops, they are right. A fenced
  loop's result whose operand something else reads and that an op may update in place is
  also kept alive to the end of its block (`_keep_alive`): after zero trips it is that
  operand's buffer, which IREE otherwise updated in place (a dynamic_update_slice or a sort
  of the result) under the operand's other readers, silently.
- A carried value that only the loop's condition reads (a convergence flag: the body never
  reads it, nothing reads the loop's result) is dropped by the scf canonicalizer from the
  values the condition hands to the body, and IREE's stream conversion then assumes both
  regions take the same values (jax's gammainc and betainc in one f64 program). Read by the
  barrier, the result is used and the value stays. `condition-only=true` fences the loops
  that carry such a value, and only those.
- Stream scheduling of the ops around the loops then finds a circular dependency; a barrier
  after every loop keeps the loops' consumers out of the partition of their producers.
  `every-loop=true` fences every loop; shlo.compile runs that on a module that fails with
  either compile error and compiles it again (shlo.pipelines.cpu_tuning.RETRIES). Barriers
  after every loop make counted loops slower.

Results of dynamic shape stay out of the barrier (IREE cannot compile it on them), and so do
tokens and tuples; a loop whose results nobody reads is left alone.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, is_static_tensor, nested_ops
from ..lib.loops import first_trip_runs
from .copy_rotated_loop_carries import rotated_places


def _condition_only(loop: ir.Operation) -> bool:
    """Whether the loop carries a value that neither its body nor anything after it reads."""
    body = loop.regions[1].blocks[0]
    return any(not list(argument.uses) and not list(result.uses)
               for argument, result in zip(body.arguments, loop.results))


def _operand_places(loop: ir.Operation) -> list[int]:
    """The places whose result may be one of the loop's operands: every place where zero
    trips are possible, else those the body returns one of its arguments into from another
    place (IREE hoists one returned in its own place out of the loop). Only those are fenced:
    a fence on the other results of jax.random's threefry loop (two 4x512 words computed
    each trip, beside its rotated keys) made a Vulkan call fail ('indirect buffer reference
    slot 0 is out range', shlo-fuzz --jax seed 3 program 107)."""
    if not first_trip_runs(loop):
        return list(range(len(loop.results)))
    return rotated_places(loop)


def _feeds_a_loop(loop: ir.Operation) -> bool:
    """Whether a loop of the function's body hands a result to another loop as an operand."""
    return loop.parent.name == "func.func" and any(
        use.owner.name == "stablehlo.while" for r in loop.results for use in r.uses)


def _fence_results(loop: ir.Operation, places: list[int] | None = None) -> list[tuple]:
    """The loop's static results (at `places`, default all) read through one barrier:
    (result, the barrier's result) pairs (none when nothing reads the loop)."""
    results = [r for p, r in enumerate(loop.results)
               if is_static_tensor(r) and (places is None or p in places)]
    if not results or not any(list(r.uses) for r in loop.results):
        return []
    return list(zip(results, extras.fence_readers(results, loop, extras.optimization_barrier)))


# ops whose result IREE may write into an operand's buffer (tied dispatch results, carried or
# captured buffers), and ops whose result is a view of their operand's buffer
UPDATES_IN_PLACE = frozenset({
    "stablehlo.dynamic_update_slice", "stablehlo.scatter", "stablehlo.sort",
    "stablehlo.while", "stablehlo.case", "stablehlo.if", "stablehlo.custom_call"})
VIEWS = frozenset({"stablehlo.reshape", "stablehlo.bitcast_convert", "stablehlo.slice",
                   "stablehlo.optimization_barrier"})


def _updated_in_place(value: ir.Value, steps: int = 64) -> bool:
    """Whether an op that may update its operand in place reads `value` (through views;
    True past `steps` ops)."""
    for use in value.uses:
        owner = use.owner.operation
        if owner.name in UPDATES_IN_PLACE or steps <= 0:
            return True
        if owner.name in VIEWS and any(_updated_in_place(r, steps - 1) for r in owner.results):
            return True
    return False


def _keep_alive(loop: ir.Operation, fenced: list[tuple]) -> None:
    """Results whose operand something else reads too and that an op may update in place,
    kept alive to the end of the loop's block (read by a barrier with the block's returned
    values). After zero trips such a result is that operand's buffer, and IREE updated it in
    place (a dynamic_update_slice or a sort of the result, where it is the last use) under the
    operand's other readers: silently wrong. Results only read by ops that write a buffer of
    their own are left alone: kept alive, jax.random's threefry keys made a Vulkan call fail
    ('indirect buffer reference slot 0 is out range', shlo-fuzz --jax seed 5 program 62).
    Loops in a function's body only: barriers before the terminators of loop bodies made
    complex eig (nested QR loops) NaN, and a nested loop's updated result was right without
    one (test_in_place_update_of_a_nested_zero_trip_loop_result)."""
    if loop.parent.name != "func.func":
        return
    shared = [new for old, new in fenced
              if _updated_in_place(new) and any(
                  use.owner.operation != loop
                  for use in loop.operands[ir.OpResult(old).result_number].uses)]
    terminator = list(loop.block.operations)[-1]
    returned = [(i, v) for i, v in enumerate(terminator.operands) if is_static_tensor(v)]
    if not shared or not returned:
        return
    with ir.InsertionPoint(terminator), loop.location:
        kept = extras.optimization_barrier([v for _, v in returned] + shared)
    for (index, _), new in zip(returned, kept):
        terminator.operands[index] = new


@dataclasses.dataclass
class BarrierLoopResults(Pass):
    """Read the static results of the while loops whose results may be their operands (with
    condition-only=true: that carry a value only their condition reads; every-loop=true:
    every loop) through one barrier after the loop."""

    NAME = "shlo-barrier-loop-results"
    every_loop: bool = False
    condition_only: bool = False

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            loop = loop.operation
            if self.every_loop:
                _fence_results(loop)
            elif self.condition_only:
                if _condition_only(loop):
                    _fence_results(loop)
            elif places := _operand_places(loop):
                _keep_alive(loop, _fence_results(loop, places))
            elif _feeds_a_loop(loop):
                _fence_results(loop)
