"""Vulkan quirk rewrite of long counted loops: fewer trips for the host to drive, no offset
read back per trip (docs/iree_gaps.md, vk-long-loop-trips)."""
from __future__ import annotations

from iree.compiler import ir

from ...base import defined_by
from ...dispatch.unroll_scan_loops import (returns_an_updated_tensor_elsewhere, op_count,
                                           unroll, updated_places)
from ...lib.loops import Counter, constant_int, counter, trip_count
from .loops import counter_wrap

MIN_TRIPS = 256         # loops of fewer trips stay as they are
MAX_FACTOR = 100        # body copies per trip at most
MAX_OPS = 1000          # ops of the unrolled body at most (compile time grows with it)


def _merge_counter_copies(loop: ir.Operation, found: Counter) -> None:
    """Read the loop's counter in the body where it reads a copy of it: a carried integer
    scalar of its type that starts at the same constant and that the body steps by the same
    constant (jax's fori_loop carries its index next to its scan's counter). Then fold
    jax's negative-index wraps of it (vk-loop-index-readback's rule)."""
    if found.start is None or found.step is None:
        return
    body = loop.regions[1].blocks[0]
    results = list(body.operations)[-1].operands
    count = body.arguments[found.index]
    for index, argument in enumerate(body.arguments):
        step = defined_by(results[index], "stablehlo.add")
        if index == found.index or argument.type != count.type or step is None or \
                constant_int(loop.operands[index]) != found.start or \
                argument not in list(step.operands):
            continue
        other = step.operands[1] if step.operands[0] == argument else step.operands[0]
        if constant_int(other) != found.step:
            continue
        for use in list(argument.uses):
            if use.owner != step:
                use.owner.operands[use.operand_number] = count
    for op in list(body.operations):
        if op.name == "stablehlo.select":
            folded = counter_wrap(op)
            if folded is not None:
                op.results[0].replace_all_uses_with(folded[0])
                op.erase()


def unroll_long_loop(loop: ir.Operation) -> None:
    """A counted loop of MIN_TRIPS trips or more with its body repeated up to MAX_FACTOR times
    a trip (the largest factor of the trip count within MAX_OPS ops), its counter's copies
    read as the counter."""
    count, found = trip_count(loop), counter(loop)
    if count is None or found is None or count < MIN_TRIPS:
        return
    _merge_counter_copies(loop, found)
    if returns_an_updated_tensor_elsewhere(loop, updated_places(loop)):
        return
    size = max(1, op_count(loop.regions[1].blocks[0]))
    factor = max(f for f in range(1, MAX_FACTOR + 1)
                 if count % f == 0 and (f == 1 or f * size <= MAX_OPS))
    if factor > 1:
        unroll(loop, factor)
