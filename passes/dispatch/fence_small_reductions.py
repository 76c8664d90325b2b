"""shlo-fence-small-reductions: a reduce of many elements into few results (batch-norm
statistics and their gradients: [16384, 32] -> [32]) whose result a large op reads is computed
in a dispatch of its own, behind a fence.

IREE 3.13 fuses such a reduce with its large broadcast consumer. The reduce has only a few
results to split between workgroups, and the fused consumer then runs on that few: in
shlo-bench's cnn_train the batch-norm backward's column sum of a 16384x32 gradient, fused
with the 524288-element input gradient it feeds, took 11 ms of a 59 ms step. Fenced, the
consumer is an elementwise dispatch over all workers. Only reduces outside loops and
conditionals, with static shapes, at most MAX_RESULTS results from at least MIN_INPUT
elements (or from the partial results of such a reduce: shlo-split-long-reduce's second
stage), read by an op of at least MIN_INPUT elements (directly or through small ops such as
a reshape or the division by the count), are fenced
(`chlo_stablehlo_extras.fusion_barrier`).
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ..lib import builders as extras
from ..base import Pass, defined_by, nested_ops

MAX_RESULTS = 256
MIN_INPUT = 1 << 16


def _size(value: ir.Value) -> int:
    t = ir.RankedTensorType(value.type)
    return math.prod(t.shape) if t.has_static_shape else -1


def _read_by_a_large_op(value: ir.Value, depth: int = 4) -> bool:
    """Whether an op of at least MIN_INPUT elements reads `value`, directly or through small
    ops (a reshape, a division by the count) up to `depth` deep."""
    for use in value.uses:
        for result in use.owner.results:
            size = _size(result)
            if size >= MIN_INPUT:
                return True
            if 0 <= size <= MAX_RESULTS and depth > 1 and _read_by_a_large_op(result, depth - 1):
                return True
    return False


def _fenced(op: ir.Operation) -> bool:
    """Whether a reduce reads many elements into few results that a large op reads."""
    if op.parent.name != "func.func" or len(op.results) != 1:
        return False
    size = _size(op.results[0])
    # the second stage of a reduce that shlo-split-long-reduce split reads the first's results
    first = defined_by(op.operands[0], "stablehlo.reduce")
    stages = first is not None and _size(first.operands[0]) >= MIN_INPUT
    return (0 <= size <= MAX_RESULTS and (_size(op.operands[0]) >= MIN_INPUT or stages)
            and _read_by_a_large_op(op.results[0]))


@dataclasses.dataclass
class FenceSmallReductions(Pass):
    """Fence the few results of a reduce over many elements where a large op reads them."""

    NAME = "shlo-fence-small-reductions"

    def run(self, op: ir.Operation) -> None:
        for reduce in nested_ops(op, "stablehlo.reduce"):
            if not _fenced(reduce):
                continue
            extras.fence_uses(reduce.results[0])
