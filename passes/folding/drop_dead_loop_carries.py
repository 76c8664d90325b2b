"""shlo-drop-dead-loop-carries: a while loop stops carrying the values that nothing needs.

A carried value is dead when nothing reads its result, the condition does not read it, and
the body reads it only to compute dead values: jax's `fori_loop` with static bounds lowers to
a scan that carries its counter twice, and one copy's result goes unread. IREE 3.13 ran
such loops wrongly on Vulkan: a `lax.switch` then two such `fori_loop`s and a sum came back
0.0, then other wrong values, on most calls (lavapipe, also without shlo's passes; the same
program with the counter read after the loops, or carried once, was right:
docs/iree_gaps.md#shlo-drop-dead-loop-carries). The loop is rebuilt without the dead values
(its regions moved into the new loop, the ops that computed them erased); values the body
reads through ops with side effects (no results, collectives, custom calls, host transfers)
stay live.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, is_inside, nested_ops
from ..lib.builders import erase_unread

# ops kept whatever reads their results
_EFFECTS = frozenset("stablehlo." + name for name in (
    "custom_call", "send", "recv", "infeed", "outfeed", "after_all", "all_reduce", "all_gather",
    "all_to_all", "collective_permute", "collective_broadcast", "reduce_scatter"))


def _effectful(op: ir.Operation) -> bool:
    """Whether `op`, or an op nested in it, has side effects."""
    return any(inner.name in _EFFECTS or not inner.results and inner.name != "stablehlo.return"
               for inner in nested_ops(op))


def _live_places(loop: ir.Operation) -> set[int]:
    """The places of the carried values that the loop needs: read after it, read by its
    condition, or read in the body to compute such a value or by an op with side effects."""
    condition, body = (region.blocks[0] for region in loop.regions)
    returned = list(body.operations)[-1].operation.operands
    live = {p for p, (result, argument) in enumerate(zip(loop.results, condition.arguments))
            if list(result.uses) or list(argument.uses)}
    roots = [v for p, v in enumerate(returned) if p in live]
    for op in list(body.operations)[:-1]:
        if _effectful(op.operation):
            roots.extend(v for inner in nested_ops(op.operation) for v in inner.operands)
    seen_ops: set = set()
    while roots:
        value = roots.pop()
        if isinstance(value, ir.BlockArgument):
            if value.owner == body and value.arg_number not in live:
                live.add(value.arg_number)
                roots.append(returned[value.arg_number])
            continue
        producer = value.owner.operation
        if producer in seen_ops or not is_inside(producer, loop):     # (a capture)
            continue
        seen_ops.add(producer)
        for inner in nested_ops(producer):
            roots.extend(inner.operands)
    return live


def _drop(loop: ir.Operation, live: list[int]) -> None:
    """Rebuild `loop` carrying only the places `live`."""
    condition, body = (region.blocks[0] for region in loop.regions)
    terminator = list(body.operations)[-1].operation
    with ir.InsertionPoint(terminator), terminator.location:
        ir.Operation.create("stablehlo.return", operands=[terminator.operands[p] for p in live])
    terminator.erase()
    # the body's ops that computed only the dropped values (any dialect: a reader left would
    # keep its block argument)
    erase_unread(loop, lambda o: o.block == body and not _effectful(o), prefix="")
    with ir.InsertionPoint(loop), loop.location:
        rebuilt = ir.Operation.create("stablehlo.while",
                                      results=[loop.results[p].type for p in live],
                                      operands=[loop.operands[p] for p in live], regions=2)
    for block, region in zip((condition, body), rebuilt.regions):
        for place in reversed(range(len(loop.results))):
            if place not in live:
                block.erase_argument(place)
        block.append_to(region)
    for new, place in zip(rebuilt.results, live):
        loop.results[place].replace_all_uses_with(new)
    loop.erase()


@dataclasses.dataclass
class DropDeadLoopCarries(Pass):
    """Drop the carried values of while loops that nothing needs."""

    NAME = "shlo-drop-dead-loop-carries"

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):       # inner loops first
            loop = loop.operation
            live = _live_places(loop)
            if 0 < len(live) < len(loop.results):     # (a loop of no values: left)
                _drop(loop, sorted(live))
