"""shlo-fence-crossed-reductions: a reduction's result that elementwise code reads along two
different dimensions (`x - outer(s, s)` with `s = (x * y).sum(0)`) is computed in a
dispatch of its own, behind a fence.

IREE's llvm-cpu backend fuses a reduction (a reduce, a dot_general, an arg-max) into
its elementwise consumers; when one consumer reads the reduction's result through two
indexing maps (as `s[i]` and as `s[j]`), each workgroup tile computes the reduction for
its own rows only and reads the others unset: wrong results, different from run to run,
once the matrix is larger than one tile, whose size follows the CPU's vector width
(docs/iree_gaps.md#shlo-fence-crossed-reductions). The analysis follows each reduction
result through elementwise ops, broadcast_in_dim, transpose and reshapes that only add or drop unit
dimensions, keeping where each of the result's dimensions lies; a value reached with two
different placements is such a read, and the result is fenced (chlo_stablehlo_extras.fence).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, nested_ops
from ..lib.elementwise import ELEMENTWISE_OPS

REDUCTIONS = frozenset({"stablehlo.reduce", "stablehlo.dot_general", "stablehlo.dot"})


def _shape(value: ir.Value) -> list[int] | None:
    t = value.type.maybe_downcast()
    return list(t.shape) if isinstance(t, ir.RankedTensorType) else None


def _unit_free_positions(shape: list[int]) -> list[int]:
    return [p for p, size in enumerate(shape) if size != 1]


def _moved(op: ir.Operation, operand: ir.Value, placement: tuple) -> list[tuple]:
    """(result, placement) pairs: where the dimensions placed at `placement` in `operand` lie
    in the results of `op`, its user ([] where the analysis stops)."""
    name = op.name
    if name in ELEMENTWISE_OPS:
        return [(r, placement) for r in op.results if _shape(r) == _shape(operand)]
    if name == "stablehlo.broadcast_in_dim":
        dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
        return [(op.results[0], tuple(None if p is None else dims[p] for p in placement))]
    if name == "stablehlo.transpose":
        perm = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
        return [(op.results[0], tuple(None if p is None else perm.index(p) for p in placement))]
    if name == "stablehlo.reshape":
        before, after = _shape(operand), _shape(op.results[0])
        if before is None or after is None:
            return []
        old, new = _unit_free_positions(before), _unit_free_positions(after)
        if [before[p] for p in old] != [after[p] for p in new]:
            return []                                  # dimensions merge or split: stop
        return [(op.results[0], tuple(None if p is None or before[p] == 1 else new[old.index(p)]
                                      for p in placement))]
    return []


def read_crossed(result: ir.Value) -> bool:
    """Whether elementwise code reads `result` with its dimensions in two different places."""
    shape = _shape(result)
    if not shape or all(size == 1 for size in shape):
        return False
    start = tuple(None if size == 1 else p for p, size in enumerate(shape))
    seen: dict = {}
    stack = [(result, start)]
    while stack:
        value, placement = stack.pop()
        placements = seen.setdefault(value, set())
        if placement in placements:
            continue
        placements.add(placement)
        if len(placements) > 1:
            return True
        for use in value.uses:
            stack.extend(_moved(use.owner.operation, value, placement))
    return False


@dataclasses.dataclass
class FenceCrossedReductions(Pass):
    """Fence reduction results that elementwise code reads along two different dimensions."""

    NAME = "shlo-fence-crossed-reductions"

    def run(self, op: ir.Operation) -> None:
        for reduction in nested_ops(op, "stablehlo."):
            if reduction.name not in REDUCTIONS:
                continue
            crossed = [r for r in reduction.results if read_crossed(r)]
            if crossed:
                extras.fence_readers(crossed, reduction)
