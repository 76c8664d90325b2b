"""shlo-split-long-reduce: a reduce of many elements into few results becomes two reduces, the
first over PARTS slices of the input side by side, so that IREE spreads it over its threads.

IREE gives each result of a reduce to one workgroup. A reduce with fewer results than
threads leaves threads idle (docs/iree_gaps.md#shlo-split-long-reduce). The input's
outermost reduced dimension that PARTS divides is cut into [PARTS, rest]: the first reduce keeps the PARTS
dimension, the second reduces it. A column reduction (kept dimensions innermost: batch-norm's
sums of [16, 32, 32, 32] over the first three) is split where all its elements make MIN_PART
a part.

Only reducers that allow the regrouping are split: one operand, a body of one add, multiply,
maximum, minimum, and or or (associative and commutative). The init value takes part once
in each part and once more at the end, so it must be the reducer's identity, except for
maximum, minimum, and and or, which do not change when a value takes part twice. A float sum
is regrouped like this anyway when it is vectorized, and the spec leaves the order of a
reduce to the implementation. Static shapes, integer and float elements only.

`max-length=N` (the Vulkan target, with `threads=false`) bounds instead every reduction's
length: no result of a reduce, a cumulative reduce_window or a dot_general reads more than N
elements in one op (passes/dispatch/long_reductions.py; lavapipe ends a shader's loops after
65535 iterations, docs/iree_gaps.md#shlo-split-long-reduce); one with run-time sizes gets a
run-time check of that bound.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import binary_body
from ..lib.expr import element_of, is_float
from ..custom_calls.cumulative_window import is_identity
from ..base import nested_ops
from ..shapes.insert_shape_checks import dynamic
from .long_reductions import (bounded_contraction, bounded_convolution, bounded_reduce,
    bounded_scatter, bounded_window, check_length)
from ..op_rules import CANONICAL, RulesPass, apply_rules

PARTS = (64, 32, 16, 8)         # the first of these that divides a reduced dimension
MIN_PART = 4096                 # elements each part reduces, at least
MAX_RESULTS = 64                # reduces with more results than this keep IREE's threads busy
COMBINE = {"stablehlo.add": stablehlo.add, "stablehlo.multiply": stablehlo.multiply,
           "stablehlo.maximum": stablehlo.maximum, "stablehlo.minimum": stablehlo.minimum,
           "stablehlo.and": stablehlo.and_, "stablehlo.or": stablehlo.or_}
IDEMPOTENT = frozenset({"stablehlo.maximum", "stablehlo.minimum", "stablehlo.and",
                        "stablehlo.or"})


def _split_point(shape: list[int], dims: list[int]) -> tuple[int, int] | None:
    """(the reduced dimension to cut, the number of parts), or None when no cut pays."""
    if not dims:                # (a reduce over no dimension reads one element per result)
        return None
    reduced = math.prod(shape[d] for d in dims)
    if math.prod(shape) // max(reduced, 1) > MAX_RESULTS:
        return None
    # a column reduction (only kept dimensions inside the reduced ones: batch-norm's [N, H, W, C]
    # sums over N, H, W) reads its results' columns side by side: a part's work is all their
    # elements
    kept = [k for k in range(len(shape)) if k not in dims]
    columns = bool(kept) and min(kept) > max(dims)
    work = math.prod(shape) if columns else reduced
    for d in sorted(dims):
        for parts in PARTS:
            if shape[d] % parts == 0 and work // parts >= MIN_PART:
                return d, parts
    return None


def _reduce(op: ir.Operation):
    if len(op.operands) != 2 or CANONICAL in op.attributes:
        return None
    x, init = op.operands
    t = ir.RankedTensorType(x.type)
    combine = binary_body(op)
    if (not t.has_static_shape or combine is None or combine.name not in COMBINE
            or not (is_float(t.element_type) or isinstance(t.element_type, ir.IntegerType))):
        return None         # (complex sums stay whole)
    if combine.name not in IDEMPOTENT and not is_identity(init, combine.name):
        return None
    shape = list(t.shape)
    dims = sorted(int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    point = _split_point(shape, dims)
    if point is None:
        return None
    cut, parts = point
    sliced = stablehlo.reshape(x, result_type=ir.RankedTensorType.get(
        shape[:cut] + [parts, shape[cut] // parts] + shape[cut + 1:], element_of(x)))
    first_dims = [d if d < cut else d + 1 for d in dims]    # the cut dimension: its rest
    body = COMBINE[combine.name]
    partial = stablehlo.reduce([sliced], [init], dimensions=first_dims, body=body)
    partial.owner.attributes[CANONICAL] = ir.UnitAttr.get()     # split once
    at = sum(1 for d in range(cut) if d not in dims)        # where the parts sit in `partial`
    return [stablehlo.reduce([partial], [init], dimensions=[at], body=body)]


@dataclasses.dataclass
class SplitLongReduce(RulesPass):
    """Split a reduce of many elements into few results into two reduces (IREE then uses all
    its threads for the first); with max-length, split every reduction longer than that."""

    NAME = "shlo-split-long-reduce"
    RULES = {"stablehlo.reduce": _reduce}
    threads: bool = True        # split reduces into few results in PARTS parts (CPU)
    max_length: int = 0         # > 0: no result of a reduction reads more elements than this

    def run(self, op: ir.Operation) -> None:
        limit, threads = self.max_length, self.threads

        def reduce(found: ir.Operation):
            return ((bounded_reduce(found, limit) if limit else None)
                    or (_reduce(found) if threads else None))
        rules = {"stablehlo.reduce": reduce}
        if limit:
            rules["stablehlo.reduce_window"] = lambda found: bounded_window(found, limit)
            rules["stablehlo.dot_general"] = lambda found: bounded_contraction(found, limit)
            rules["stablehlo.scatter"] = lambda found: bounded_scatter(found, limit)
            rules["stablehlo.convolution"] = lambda found: bounded_convolution(found, limit)
        apply_rules(op, rules, self.NAME)
        if limit:
            with op.context:
                for found in [o for o in nested_ops(op) if o.name in rules and dynamic(o)]:
                    with ir.InsertionPoint(found), found.location:
                        check_length(found, limit)
