"""shlo-split-long-reduce: a reduce of many elements into few results becomes two reduces, the
first over PARTS slices of the input side by side, so that IREE spreads it over its threads.

IREE gives each result of a reduce to one workgroup. A reduce with fewer results than
threads leaves threads idle (docs/iree_gaps.md#shlo-split-long-reduce). The input's
outermost reduced dimension that a part count of PARTS divides (into whole vectors, where it
is the innermost dimension) is cut into [parts, rest], the most parts that leave each at
least MIN_PART elements: the first reduce keeps the parts dimension, the second reduces it.
A column reduction (kept dimensions innermost: batch-norm's sums of [16, 32, 32, 32] over
the first three) is split where all its elements make MIN_PART a part. Where no part count
divides a reduced dimension, the parts take its leading piece (whole vectors a part where it
is the innermost dimension) and the rest is reduced on its own (else IREE reduces such a
dimension with one scalar chain: 3x slower and 100x less accurate).
A dot_general into few results is split the same way along its longest contracting
dimension, the parts becoming a batch dimension (IREE's product accumulates along the whole
contraction: a vector dot of 166667 elements was 3.6x slower than XLA's, 2e-6 off against
its 2e-8); a long f32 or f64 vector dot of whole vectors becomes the sum of its products,
split as a reduce (`_sum_of_products`; a batched split of it took 1-7x IREE's time;
docs/performance.md).

Only reducers that allow the regrouping are split: one operand, a body of one add, multiply,
maximum, minimum, and or or (associative and commutative). The init value takes part once
in each part and once more at the end, so it must be the reducer's identity, except for
maximum, minimum, and and or, which do not change when a value takes part twice. A float sum
is regrouped like this anyway when it is vectorized, and the spec leaves the order of a
reduce to the implementation. Static shapes, integer and float elements only; a long sum
of complex values becomes the sums of its real and imaginary parts first (`_complex_sum`).

`max-length=N` (the Vulkan target, with `threads=false`) bounds instead every reduction's
length: no result of a reduce, a cumulative reduce_window or a dot_general reads more than N
elements in one op (passes/dispatch/long_reductions.py; lavapipe ends a shader's loops after
65535 iterations, docs/iree_gaps.md#shlo-split-long-reduce); one with run-time sizes gets a
run-time check of that bound. `scan-length=N` (the cpu target) blocks only scans longer than N
(`_blocked_scan`), for accuracy.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import element_dtype
from ..base import binary_body
from ..lib.expr import element_of, is_complex, is_float
from ..custom_calls.cumulative_window import is_identity
from ..base import nested_ops
from ..shapes.insert_shape_checks import dynamic
from .long_reductions import (bounded_contraction, bounded_convolution, bounded_reduce,
    bounded_scatter, bounded_window, blocked_scan, check_length, contraction_in_blocks, COMBINE,
    slice_along)
from ..op_rules import CANONICAL, RulesPass, apply_rules

PARTS = range(64, 7, -1)        # the parts a split reduction is cut into: the most that pay
MIN_PART = 4096                 # elements each part reduces, at least
MAX_RESULTS = 64                # reduces with more results than this keep IREE's threads busy
VECTOR = 16                     # elements of a vector: what a part holds a whole number of
# float vector dots of whole vectors summed as a reduce from this length (`_sum_of_products`);
# shorter ones, and narrower types (accumulated in f32), stay IREE's
LONG_VECTOR_DOT = 1 << 18
IDEMPOTENT = frozenset({"stablehlo.maximum", "stablehlo.minimum", "stablehlo.and",
                        "stablehlo.or"})


def _parts(length: int, work: int, align: int, contiguous: bool) -> tuple[int, int] | None:
    """(parts, the leading piece of a dimension of `length` that they take) such that each part
    reads at least MIN_PART of the `work` elements that dimension spans, as many parts as
    PARTS allows: the whole dimension where the parts divide it into whole `align`-element
    vectors; else (with `contiguous`) a piece of whole vectors, the rest left over; else the
    whole dimension in parts of any length. None where no cut pays."""
    if not length:
        return None

    def pays(parts, piece):
        return work // length * piece // parts >= MIN_PART
    for parts in PARTS:
        if length % (parts * align) == 0 and pays(parts, length):
            return parts, length
    for parts in PARTS if contiguous else ():
        piece = length - length % (parts * align)
        if piece and pays(parts, piece):
            return parts, piece
    for parts in PARTS:
        if length % parts == 0 and pays(parts, length):
            return parts, length
    return None


def _split_point(shape: list[int], dims: list[int]) -> tuple[int, int, int] | None:
    """(the reduced dimension to cut, the number of parts, the leading piece of that dimension
    the parts take), or None when no cut pays. A dimension the parts divide is cut first."""
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
        found = _parts(shape[d], work, VECTOR if d == len(shape) - 1 else 1, True)
        if found:
            return d, *found
    return None


def _reduce(op: ir.Operation):
    if len(op.operands) != 2 or CANONICAL in op.attributes:
        return None
    x, init = op.operands
    t = ir.RankedTensorType(x.type)
    combine = binary_body(op)
    if (not t.has_static_shape or combine is None or combine.name not in COMBINE
            or not (is_float(t.element_type) or isinstance(t.element_type, ir.IntegerType))):
        return None         # (complex sums: `_complex_sum`)
    if combine.name not in IDEMPOTENT and not is_identity(init, combine.name):
        return None
    shape = list(t.shape)
    dims = sorted(int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    point = _split_point(shape, dims)
    if point is None:
        return None
    cut, parts, piece = point
    body = COMBINE[combine.name]
    head = x if piece == shape[cut] else slice_along(x, cut, 0, piece)
    sliced = stablehlo.reshape(head, result_type=ir.RankedTensorType.get(
        shape[:cut] + [parts, piece // parts] + shape[cut + 1:], element_of(x)))
    first_dims = [d if d < cut else d + 1 for d in dims]    # the cut dimension: its rest
    partial = stablehlo.reduce([sliced], [init], dimensions=first_dims, body=body)
    partial.owner.attributes[CANONICAL] = ir.UnitAttr.get()     # split once
    at = sum(1 for d in range(cut) if d not in dims)        # where the parts sit in `partial`
    result = stablehlo.reduce([partial], [init], dimensions=[at], body=body)
    if piece == shape[cut]:
        return [result]
    rest = stablehlo.reduce([slice_along(x, cut, piece, shape[cut])], [init], dimensions=dims,
                            body=body)
    rest.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [body(result, rest)]


def _dot(op: ir.Operation):
    """A dot_general into few results contracting many elements: its longest contracting
    dimension cut into parts that become its last batch dimension, the parts' products then
    summed; where no part count divides that dimension, the parts take a leading piece of
    it and the rest is a product of its own."""
    result = ir.RankedTensorType(op.results[0].type)
    results = math.prod(result.shape) if result.has_static_shape else None
    if CANONICAL in op.attributes or results is None or results > MAX_RESULTS:
        return None
    (lhs, rhs), kw = arguments(op)
    lt, rt = (ir.RankedTensorType(v.type) for v in (lhs, rhs))
    if not (lt.has_static_shape and rt.has_static_shape) or not all(
            is_float(t.element_type) or isinstance(t.element_type, ir.IntegerType)
            for t in (lt, rt, result)):
        return None
    lc, rc = list(kw["lhs_contracting_dimensions"]), list(kw["rhs_contracting_dimensions"])
    if not lc:
        return None
    i = max(range(len(lc)), key=lambda k: lt.shape[lc[k]])
    size, total = lt.shape[lc[i]], math.prod(lt.shape[d] for d in lc)
    # a leading piece of contracting dimension i is contiguous in both operands only where
    # every dimension before it is 1
    contiguous = all(n == 1 for n in lt.shape[:lc[i]]) and all(n == 1 for n in rt.shape[:rc[i]])
    last = lc[i] == lt.rank - 1 and rc[i] == rt.rank - 1
    point = _parts(size, total, VECTOR if last else 1, contiguous)
    if point is None:
        return None
    if results == 1 and last and total % VECTOR == 0:
        # (a batched split of IREE's vector dot of whole vectors took 1-7x its time)
        float_dot = len(lc) == 1 and size >= LONG_VECTOR_DOT and is_float(
            result.element_type) and ir.FloatType(result.element_type).width >= 32
        return [_sum_of_products(lhs, rhs, size, result)] if float_dot else None
    parts, piece = point
    def head(v, d):
        return v if piece == size else slice_along(v, d, 0, piece)
    summed, blocks = contraction_in_blocks(head(lhs, lc[i]), head(rhs, rc[i]), kw, result, i,
                                           parts, piece // parts)
    blocks.attributes[CANONICAL] = ir.UnitAttr.get()
    if piece == size:
        return [summed]
    rest = stablehlo.dot_general(slice_along(lhs, lc[i], piece, size),
                                 slice_along(rhs, rc[i], piece, size),
                                 **{**kw, "result_type": result})
    rest.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [stablehlo.add(summed, rest)]


def _sum_of_products(lhs: ir.Value, rhs: ir.Value, size: int,
                     result: ir.RankedTensorType) -> ir.Value:
    """A float vector dot (`size` products, every other dimension 1) as the sum of its
    products in the result's type, which `_reduce` then splits: IREE's own vector dot of whole
    vectors sums along the whole contraction in 16 chains (1M uniform values 3.4e-6 off, 4M
    7.4e-6; XLA 6.7e-8, 3.3e-8), the split sum 5.2e-8 and 2.7e-8 at 1.1-1.2x the dot's time
    (0.7-1.3x XLA's; docs/performance.md)."""
    element = result.element_type
    flat = ir.RankedTensorType.get([size], element)

    def vector(v: ir.Value) -> ir.Value:
        shape = ir.RankedTensorType(v.type).shape
        if element_of(v) != element:
            v = stablehlo.convert(v, result_type=ir.RankedTensorType.get(shape, element))
        return v if v.type == flat else stablehlo.reshape(v, result_type=flat)
    zero = stablehlo.constant(0.0, result_type=ir.RankedTensorType.get([], element))
    total = stablehlo.reduce([stablehlo.multiply(vector(lhs), vector(rhs))], [zero],
                             dimensions=[0], body=stablehlo.add)
    return stablehlo.reshape(total, result_type=result)


def _complex_sum(op: ir.Operation, min_length: int):
    """A sum of complex values, at least `min_length` of them a result, as the complex of the
    sums of their real and imaginary parts, which the other rules split. IREE sums complex
    values in one chain (kept out of the float rules): 65536 values of 0.9999 summed 6.3 off on
    cpu, where XLA was 0.05 off and a float sum 0.2. The parts are summed from -0 (the sum's
    identity, also for -0 terms) and the start's parts added after."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    t = ir.RankedTensorType(x.type)
    combine = binary_body(op)
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    if (not t.has_static_shape or not is_complex(t.element_type) or combine is None
            or combine.name != "stablehlo.add"
            or math.prod(t.shape[d] for d in dims) < min_length):
        return None
    part_type = ir.ComplexType(t.element_type).element_type
    zero = stablehlo.constant(np.array(-0.0, element_dtype(part_type)),
                              result_type=ir.RankedTensorType.get([], part_type))
    result_type = ir.RankedTensorType.get(
        [n for d, n in enumerate(t.shape) if d not in dims], part_type)
    sums = []
    for part in (stablehlo.real, stablehlo.imag):
        total = stablehlo.reduce([part(x)], [zero], dimensions=dims, body=stablehlo.add)
        start = stablehlo.broadcast_in_dim(part(init), broadcast_dimensions=[],
                                           result_type=result_type)
        sums.append(stablehlo.add(total, start))
    return [stablehlo.complex(*sums)]


def _blocked_scan(op: ir.Operation, length: int):
    """A scan (a cumulative reduce_window: jnp.cumsum, cummax, ...) of more than `length`
    elements, of one operand and a body of one op whose init the blocks may repeat, as scans
    of blocks of at most `length`, a scan of the blocks' totals and the prefixes combined.
    IREE scans a dimension in one chain: a cumsum of 1M floats was 2.2e-5 off (XLA 2.1e-7;
    blocked 4.2e-7 and 1.7x faster, docs/performance.md)."""
    combine = binary_body(op)
    element = element_of(op.operands[0])
    if (len(op.operands) != 2 or combine is None or combine.name not in COMBINE
            or not (is_float(element) or isinstance(element, ir.IntegerType))):
        return None         # (complex scans stay whole)
    if combine.name not in IDEMPOTENT and not is_identity(op.operands[1], combine.name):
        return None
    return blocked_scan(op, length)


@dataclasses.dataclass
class SplitLongReduce(RulesPass):
    """Split a reduce of many elements into few results into two reduces (IREE then uses all
    its threads for the first); with max-length, split every reduction longer than that."""

    NAME = "shlo-split-long-reduce"
    RULES = {"stablehlo.reduce": _reduce, "stablehlo.dot_general": _dot}
    threads: bool = True        # split reduces into few results in PARTS parts (CPU)
    max_length: int = 0         # > 0: no result of a reduction reads more elements than this
    scan_length: int = 0        # > 0: scans longer than this are blocked (`_blocked_scan`)

    def run(self, op: ir.Operation) -> None:
        limit, threads, scan = self.max_length, self.threads, self.scan_length

        def reduce(found: ir.Operation):
            return (_complex_sum(found, min(limit or MIN_PART, MIN_PART))
                    or (bounded_reduce(found, limit) if limit else None)
                    or (_reduce(found) if threads else None))
        def dot(found: ir.Operation):
            return ((bounded_contraction(found, limit) if limit else None)
                    or (_dot(found) if threads else None))
        rules = {"stablehlo.reduce": reduce, "stablehlo.dot_general": dot}
        if scan and not limit:
            rules["stablehlo.reduce_window"] = lambda found: _blocked_scan(found, scan)
        if limit:
            rules["stablehlo.reduce_window"] = lambda found: bounded_window(found, limit)
            rules["stablehlo.scatter"] = lambda found: bounded_scatter(found, limit)
            rules["stablehlo.convolution"] = lambda found: bounded_convolution(found, limit)
        apply_rules(op, rules, self.NAME)
        if limit:
            with op.context:
                for found in [o for o in nested_ops(op) if o.name in rules and dynamic(o)]:
                    with ir.InsertionPoint(found), found.location:
                        check_length(found, limit)
