"""shlo-unroll-scan-loops: a counted while loop that writes a carried tensor with
dynamic_update_slice (a scan's stacked outputs, a fori_loop's buffer) runs `factor` steps per
trip (the body repeated, each copy reading the previous one's results).

IREE does not update a loop-carried tensor in place: every trip allocates the carried
values anew and copies each updated tensor whole into the new allocation (stream.cmd.copy of
the full buffer per iteration; docs/iree_gaps.md#shlo-unroll-scan-loops). Run `factor` steps
per trip, the loop makes that many times fewer copies. The loop must count: its condition is `i < N`
on a carried integer scalar that starts at a constant and that the body steps by 1, N a
constant; `factor` is the largest number up to `max-factor` that divides the trip count and keeps
the unrolled body within `max-ops` ops (compile time grows with it: transformer_decode's 226-op
body took 26 s to compile at 24 steps a trip against 8 s at 16; loops it divides by no such
number above 1 stay as they are). The condition is unchanged: i reaches N exactly. A factor
that is the trip count replaces the loop by its body repeated (IREE would inline its one trip).

A counted loop of at most `max-full-trips` trips (jax.random's threefry: 5 trips carrying a
key and counters) whose unrolled body stays within `max-ops` ops is replaced by its body
repeated, updated tensor or not: IREE reads each trip's condition back on the host (a host
wait a trip), so sampling's 5-trip loops cost more than their dispatches. Loops that carry a
complex tensor are not unrolled whole (`_carries_complex`); `max-full-trips=-1` turns the
whole unroll off.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, clone_ops, defined_by, nested_ops
from ..lib.expr import const
from ..lib.loops import CONDITIONALS, counter, trip_count
from shlo.dialect import stablehlo


def _counts_from_zero_up(loop: ir.Operation) -> bool:
    """Whether the counted loop's counter starts at 0 or more and compares as signed (so it
    makes `N - start` trips, none where that is negative)."""
    found = counter(loop)
    return found is not None and found.signed and found.start is not None and found.start >= 0


def _carries_complex(loop: ir.Operation) -> bool:
    """Whether the loop carries a complex tensor. Unrolled whole, its first trip reads the
    initial value directly: IREE failed to compile a dynamic_update_slice into a complex splat
    constant (shlo-split-complex-constants now splits those), and complex128 Schur and eig
    (test_lapack_calls) still fail unrolled."""
    return any(isinstance(ir.RankedTensorType(v.type).element_type.maybe_downcast(),
                          ir.ComplexType)
               for v in loop.operands if isinstance(v.type.maybe_downcast(), ir.RankedTensorType))


def _has_conditionals(loop: ir.Operation) -> bool:
    """Whether the loop's body holds an if or a case. Run several steps a trip (a fori_loop
    of 16 trips updating a buffer by a `lax.cond`'s result), it failed IREE's stream
    scheduling ("failed to solve for timepoint coverage"), and each conditional is a host
    wait a step anyway, so that saves little; short loops are still unrolled whole."""
    return any(o.name in CONDITIONALS for o in nested_ops(loop, "stablehlo."))


def op_count(block: ir.Block) -> int:
    """Ops in `block` and nested in its ops' regions, terminators excluded."""
    count = 0
    for op in list(block.operations)[:-1]:
        count += 1
        for region in op.regions:
            for inner in region.blocks:
                count += op_count(inner)
    return count


def unroll_fully(loop: ir.Operation, count: int) -> None:
    """Replace `loop` by its body repeated `count` times (0 or more), each copy reading the
    previous one's results; the loop's results become the last copy's."""
    body = loop.regions[1].blocks[0]
    ops = list(body.operations)
    terminator, ops = ops[-1], ops[:-1]
    values = list(loop.operands)
    with ir.InsertionPoint(loop):
        for _ in range(count):
            mapping = clone_ops(ops, dict(zip(body.arguments, values)))
            values = [mapping.get(v, v) for v in terminator.operands]
    for result, value in zip(loop.results, values):
        result.replace_all_uses_with(value)
    loop.erase()


def updated_places(loop: ir.Operation) -> list[int]:
    """The carried tensors the body returns, in their own places, a dynamic_update_slice of."""
    body = loop.regions[1].blocks[0]
    results = list(body.operations)[-1].operands
    places = []
    for index, argument in enumerate(body.arguments):
        update = defined_by(results[index], "stablehlo.dynamic_update_slice")
        if update is not None and update.operands[0] == argument:
            places.append(index)
    return places


def returns_an_updated_tensor_elsewhere(loop: ir.Operation, places: list[int]) -> bool:
    """Whether the body also returns a carried tensor it updates (`places`) in another
    result's place (`return b, dynamic_update_slice(b, ...)`: a loop that keeps the previous
    state). Unrolled, that place holds an intermediate update, and IREE's compiler crashed on
    such a loop (docs/iree_gaps.md#shlo-unroll-scan-loops)."""
    body = loop.regions[1].blocks[0]
    results = list(list(body.operations)[-1].operands)
    return any(r == body.arguments[index] for index in places
               for k, r in enumerate(results) if k != index)


def unroll(loop: ir.Operation, factor: int) -> None:
    """Repeat the body `factor` times in place, each copy reading the previous one's results;
    a counter `i` stepped by a constant k is read as `i + j*k` in copy j and returned as
    `i + factor*k` (the chain `((i + k) + k) ...` IREE computed on the device and read back,
    each copy a host wait: at 12 or more copies a trip its stream timepoint analysis gave up,
    docs/iree_gaps.md#shlo-unroll-scan-loops)."""
    body = loop.regions[1].blocks[0]
    ops = list(body.operations)
    terminator, ops = ops[-1], ops[:-1]
    found = counter(loop)
    place, step = (None, None) if found is None else (found.index, found.step)

    def counted(values: list, copies: int) -> list:
        if place is not None and step is not None:
            i = body.arguments[place]
            with ir.InsertionPoint(terminator), terminator.location:
                values[place] = stablehlo.add(i, const(copies * step, i))
        return values

    values = list(terminator.operands)
    for copies in range(1, factor):
        values = counted(values, copies)
        with ir.InsertionPoint(terminator):
            mapping = clone_ops(ops, dict(zip(body.arguments, values)))
        values = [mapping.get(v, v) for v in terminator.operands]
    for i, value in enumerate(counted(values, factor)):
        terminator.operands[i] = value


@dataclasses.dataclass
class UnrollScanLoops(Pass):
    """Run `max-factor` (or fewer) steps per trip of a counted while loop that updates a
    carried tensor with dynamic_update_slice; replace a loop of `max-full-trips` trips or
    fewer by its body repeated."""

    NAME = "shlo-unroll-scan-loops"
    max_factor: int = 24
    # ops of the unrolled body at most (its top-level ops times the factor): compile time
    # grows with the body
    max_ops: int = 4000
    # trips of a loop replaced by its body repeated (each trip a host wait in IREE); -1: none
    max_full_trips: int = 8

    def run(self, op: ir.Operation) -> None:
        # post-order: inner loops before the loops around them
        for loop in nested_ops(op, "stablehlo.while"):
            count = trip_count(loop)
            if count is not None and count <= self.max_full_trips and \
                    _counts_from_zero_up(loop) and not _carries_complex(loop) and \
                    max(count, 0) * op_count(loop.regions[1].blocks[0]) <= self.max_ops:
                unroll_fully(loop, max(count, 0))
                continue
            if not count or count <= 1 or _has_conditionals(loop):
                continue
            places = updated_places(loop)
            if not places or returns_an_updated_tensor_elsewhere(loop, places):
                continue
            size = max(1, len(loop.regions[1].blocks[0].operations) - 1)
            # all trips in one (IREE then inlines the loop): not for complex carries, as above
            factor = max((f for f in range(1, self.max_factor + 1)
                          if count % f == 0 and (f == 1 or f * size <= self.max_ops) and
                          (f < count or not _carries_complex(loop))))
            if factor == count and _counts_from_zero_up(loop):
                unroll_fully(loop, count)
            elif factor > 1:
                unroll(loop, factor)
