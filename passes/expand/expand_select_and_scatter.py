"""shlo-expand-select-and-scatter: decompose stablehlo.select_and_scatter, which IREE cannot
lower with padding, with windows of one element, or with strides that leave the operand's tail
unread (docs/iree_gaps.md#shlo-expand-select-and-scatter).

The spec's semantics, step by step: for each window (over the operand padded by `padding`,
whose padding elements are never selected), walk its elements in index order and keep the
current one unless `select(current, candidate)` is false; then combine each source value into
the result (initialised to `init_value`) at the selected position with `scatter`. The
decomposition does exactly that on whole tensors: one strided slice per window element of
the padded operand, of its flat operand positions (-1 in the padding) and of an in-bounds
mask; a left fold over the window elements in order, where `select` runs elementwise through
stablehlo.map; then one stablehlo.scatter of the source at the selected flat positions (a
window of padding only selects -1, which the scatter drops as out of bounds; a source that an
op computes goes to the scatter, and a computed operand to its window slices, through a
fusion barrier: IREE's cpu backend otherwise fused either into the dispatch that reads it and
kept all of it on the stack, over the 32 KiB limit). A padded window
of more than MAX_WINDOW elements is rejected with an error rather than unrolled; unpadded ones
that tile the operand are reductions in index order (`long_select_windows`: IREE's kernel
selected other elements among equal ones and NaN, on every target), other unpadded ones an
error; dynamic shapes are left to IREE.

The spec lets `reduce` (which combines the source values of one position with init_value)
use init_value an implementation-defined number of times: the reference interpreter uses it
twice, this decomposition (like IREE) once; they agree when init_value is scatter's identity.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.errors import PassError
from ..lib.builders import fence
from ..lib.expr import Num, select
from .index_vectors import edge_pad, is_static, reshape, shape_of, tensor
from .long_select_windows import tiled_select_and_scatter
from ..op_rules import RulesPass

MAX_WINDOW = 256


def _computed_apart(value: ir.Value) -> ir.Value:
    """The operand or the source, computed in dispatches of its own when an op computes it:
    IREE's cpu backend fused an elementwise source (a convert) into the scatter, and an
    elementwise operand (a convert of a boolean argument, which shlo-slice-before-elementwise
    slices after) into the dispatch of its window slices, and kept all of it on the stack
    (65536 bytes for f32[16383] or i32[8, 2048] where 32768 are allowed)."""
    return value if isinstance(value.owner, ir.Block) else fence([value])[0]


def _select_and_scatter(op: ir.Operation):
    (operand, source, init), kw = arguments(op)
    if not is_static(operand, source):
        return None
    shape = shape_of(operand)
    rank = len(shape)
    padding = kw.get("padding")
    padding = [[0, 0]] * rank if padding is None else [list(map(int, p)) for p in padding]
    window = list(kw["window_dimensions"])
    strides = list(kw.get("window_strides") or [1] * rank)
    size = int(np.prod(window))
    if size > MAX_WINDOW and not np.any(padding):
        return tiled_select_and_scatter(op, MAX_WINDOW)     # not unrolled, nor IREE's
    if size > MAX_WINDOW:
        raise PassError(f"shlo-expand-select-and-scatter: a padded select_and_scatter window of "
                        f"{size} elements (window {window}) is more than the {MAX_WINDOW} this "
                        f"decomposition unrolls", at=op)
    low = [p[0] for p in padding]
    high = [p[1] for p in padding]
    element = ir.RankedTensorType(operand.type).element_type
    n = int(np.prod(shape))
    flat = reshape(stablehlo.iota(iota_dimension=0, result_type=tensor([n], "i32")), shape)

    values = edge_pad(_computed_apart(operand), 0, low, high)
    positions = edge_pad(flat, -1, low, high)
    inside = edge_pad(stablehlo.constant(True, result_type=tensor(shape, "i1")), False, low, high)
    counts = shape_of(source)

    def at(x, offset):
        limits = [o + (c - 1) * s + 1 for o, c, s in zip(offset, counts, strides)]
        return stablehlo.slice(x, start_indices=list(offset), limit_indices=limits,
                               strides=strides)

    offsets = list(itertools.product(*[range(w) for w in window]))
    best = [at(x, offsets[0]) for x in (values, positions, inside)]
    for offset in offsets[1:]:
        value, position, ok = (at(x, offset) for x in (values, positions, inside))
        keep = stablehlo.map([best[0], value], dimensions=list(range(rank)),
                             computation=kw["select"])
        # take the candidate when nothing is held yet, or when select(held, candidate) fails
        take = Num(ok) & (~Num(best[2]) | ~Num(keep))
        best = [select(take, Num(new), Num(old)).value
                for new, old in zip((value, position, ok), best)]
    result = stablehlo.broadcast_in_dim(init, broadcast_dimensions=[],
                                        result_type=tensor([n], element))
    windows = int(np.prod(counts))
    out = stablehlo.scatter([result], reshape(best[1], [windows, 1]),
                            [reshape(_computed_apart(source), [windows])], update_window_dims=[],
                            inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                            index_vector_dim=1, update_computation=kw["scatter"])
    return [reshape(out, shape)]


@dataclasses.dataclass
class ExpandSelectAndScatter(RulesPass):
    """Decompose stablehlo.select_and_scatter into slices, map, select and scatter."""

    NAME = "shlo-expand-select-and-scatter"
    RULES = {"stablehlo.select_and_scatter": _select_and_scatter}
