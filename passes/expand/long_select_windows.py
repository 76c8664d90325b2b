"""select_and_scatter over windows too long for shlo-expand-select-and-scatter to unroll, as
reductions in index order
(docs/iree_gaps.md#long-select-windows-select_and_scatter-over-long-windows)."""
from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.types import element_dtype
from shlo.errors import PassError
from ..lib.expr import (Num, clone_retyped, is_complex, is_float, is_nan, max_over, min_over,
                        select, with_element)


# a select body `compare DIR, current, candidate` -> (the selected element is the largest,
# the first of equal ones); a compare of (candidate, current) is the swapped direction
SELECTIONS = {"GE": (True, True), "GT": (True, False), "LE": (False, True), "LT": (False, False)}
SWAPPED = {"GE": "LE", "GT": "LT", "LE": "GE", "LT": "GT"}


def _selection(op: ir.Operation) -> tuple[bool, bool] | None:
    """SELECTIONS' entry of a select body that is one compare of its arguments (not in total
    order), else None."""
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    if len(ops) != 2 or ops[0].name != "stablehlo.compare" or \
            list(ops[1].operands) != [ops[0].results[0]]:
        return None
    compare = ops[0]
    if "compare_type" in compare.attributes and \
            enum_name(compare.attributes["compare_type"]) == "TOTALORDER":
        return None
    direction = enum_name(compare.attributes["comparison_direction"])
    args = list(compare.operands)
    if args == list(block.arguments)[::-1]:
        direction = SWAPPED.get(direction, direction)
    elif args != list(block.arguments):
        return None
    return SELECTIONS.get(direction)


def tiled_select_and_scatter(op: ir.Operation, limit: int):
    """An unpadded static select_and_scatter with windows of more than `limit` elements that
    tile its operand, its select one compare, as reductions over each window's elements in
    index order: the element the spec's left fold selects (after the last NaN, the first or
    last largest or smallest; a NaN that ends the window itself), and the scatter of the
    source there. Any other raises PassError (IREE's kernel selects other elements than the
    spec's among equal ones and NaN, and leaves results unwritten on lavapipe)."""
    x, source, init = op.operands
    t, n = ir.RankedTensorType(x.type), ir.RankedTensorType(source.type)
    window = list(ir.DenseI64ArrayAttr(op.attributes["window_dimensions"]))
    strides = list(ir.DenseI64ArrayAttr(op.attributes["window_strides"])) \
        if "window_strides" in op.attributes else [1] * t.rank
    padded = "padding" in op.attributes and any(
        int(p) for p in ir.DenseIntElementsAttr(op.attributes["padding"]))
    selection = _selection(op)
    tiling = all(s == w or c == 1 for s, w, c in zip(strides, window, n.shape))  # one window
    if selection is None or padded or not tiling or not t.has_static_shape or \
            is_complex(t.element_type):
        raise PassError(
            f"select_and_scatter: windows of {math.prod(window)} elements (window {window}, "
            f"strides {strides} over {t}) are computed wrongly by IREE past "
            f"{limit} elements; only windows tiling the operand, selected by one compare, "
            "are computed apart "
            "(docs/iree_gaps.md#long-select-windows-select_and_scatter-over-long-windows)",
            at=op)
    largest, first = selection
    rank, size, counts = t.rank, math.prod(window), list(n.shape)
    tiled = [k for c, w in zip(counts, window) for k in (c, w)]
    order = list(range(0, 2 * rank, 2)) + list(range(1, 2 * rank, 2))
    v = stablehlo.slice(x, start_indices=[0] * rank,
                        limit_indices=[c * w for c, w in zip(counts, window)])
    v = stablehlo.reshape(v, result_type=ir.RankedTensorType.get(tiled, t.element_type))
    v = stablehlo.transpose(v, permutation=order)
    v = Num(stablehlo.reshape(v, result_type=ir.RankedTensorType.get(counts + [size],
                                                                     t.element_type)))
    index = Num(stablehlo.iota(iota_dimension=rank, result_type=ir.RankedTensorType.get(
        counts + [size], ir.IntegerType.get_signless(32))))

    def spread(value: Num) -> Num:
        return Num(stablehlo.broadcast_in_dim(value.value, broadcast_dimensions=list(
            range(rank)), result_type=with_element(index.type, value.element)))
    after = index > -1
    last_nan = None
    if is_float(t.element_type):            # the fold restarts after each NaN
        last_nan = max_over(select(is_nan(v), index, -1), [rank], -1)
        after = index > spread(last_nan)
    bound = -math.inf if largest else math.inf
    if not is_float(t.element_type):
        info = element_dtype(t.element_type)
        bound = int(np.iinfo(info).min if largest else np.iinfo(info).max)
    extreme = (max_over if largest else min_over)(select(after, v, bound), [rank], bound)
    hit = after & v.eq(spread(extreme))
    chosen = min_over(select(hit, index, size), [rank], size) if first else \
        max_over(select(hit, index, -1), [rank], -1)
    if last_nan is not None:
        chosen = select(last_nan.eq(size - 1), last_nan, chosen)
    starts = Num(stablehlo.broadcast_in_dim(init, broadcast_dimensions=[], result_type=n))
    scattered = clone_retyped(op.regions[1].blocks[0], [starts.value, source],
                              lambda each: with_element(n, ir.RankedTensorType(each).element_type))
    out = select(index.eq(spread(chosen)), spread(Num(scattered[0])), stablehlo.broadcast_in_dim(
        init, broadcast_dimensions=[], result_type=with_element(index.type, t.element_type)))
    out = stablehlo.reshape(out.value, result_type=ir.RankedTensorType.get(
        [tiled[d] for d in order], t.element_type))
    out = stablehlo.transpose(out, permutation=[order.index(d) for d in range(2 * rank)])
    out = stablehlo.reshape(out, result_type=ir.RankedTensorType.get(
        [c * w for c, w in zip(counts, window)], t.element_type))
    tail = [s - c * w for s, c, w in zip(t.shape, counts, window)]
    if any(tail):
        out = stablehlo.pad(out, init, edge_padding_low=[0] * rank, edge_padding_high=tail,
                            interior_padding=[0] * rank)
    return [out]
