"""shlo-merge-edge-pads: a pad of a pad by the same padding value, one of them with interior
padding, as one pad, or with the inner pad fenced; a pad of a pad of a computed value by another
padding value with the inner pad fenced.

IREE 3.13 folds such a pair into one pad and gets the interior padding wrong, silently, on
every target, also without shlo's passes: pad(pad([1, 2], 0, high 2, interior 2), 0, high 78)
gave [1, 2, 0, ...] for [1, 0, 0, 2, ...] (shlo-fuzz seed 64 program 1479); of f32[65536] with
interior 1 then high 7, 98303 of 196615 elements were wrong; an edge pad then an interior one
alike (docs/iree_gaps.md#shlo-merge-edge-pads-pads-of-interior-pads). Pads of other values, and
pairs of edge-only pads, were right.

An edge-only pad of an interior pad is one pad with the edges added, where that is exact along
every dimension: an outer edge that cuts (negative) only removes what the inner pad's edge
added or the interior-padded operand behind it, as a negative edge of the merged pad does.
Otherwise (an inner edge that cuts where the outer one adds; an outer pad with interior
padding) the outer pad reads the inner one behind a fence, which IREE does not fold through.

A pad of a pad by another padding value, of a computed value (`negate(x)` padded by 1, then
by 0; `convert(i32 -> f32)` padded by 0, then by -2), failed to compile on cpu and vulkan, also
without shlo's passes ("write affecting operations on global resources are restricted to
workgroup distributed contexts"; fuzz regression complex_convolution_padded_vulkan; seed 147
program 198, the imaginary parts of a complex pad of a pad). The outer pad reads the inner one
behind a fence too; so it does a padded reduce_window of one-element windows, which IREE lowers
as a pad (seed 102 program 363: a pad of a dilated max window of size 1 over `min(x, y)`).
This runs late, after the folds that make such pairs (imag(complex(a, pad(b))) is pad(b)).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..expand.expand_reduce_window import window_attributes
from ..lib.builders import fence
from ..op_rules import RulesPass

_EDGES = ("edge_padding_low", "edge_padding_high", "interior_padding")


def _padding(op: ir.Operation) -> list[list[int]]:
    return [list(ir.DenseI64ArrayAttr(op.attributes[name])) for name in _EDGES]


def _same_value(a: ir.Value, b: ir.Value) -> bool:
    """Whether two padding values are one value or equal constants."""
    if a == b:
        return True
    owners = [v.owner for v in (a, b)]
    return all(isinstance(o, ir.OpView | ir.Operation) and o.name == "stablehlo.constant"
               for o in owners) and str(owners[0].attributes["value"]) == \
        str(owners[1].attributes["value"])


def _lowered_as_pad(op: ir.Operation) -> bool:
    """Whether IREE lowers `op` as a pad of its first operand by its second: a pad, or a
    reduce_window of one input whose windows hold one element, padded or base dilated."""
    if op.name == "stablehlo.pad":
        return True
    if op.name != "stablehlo.reduce_window" or len(op.operands) != 2:
        return False
    _, kw = arguments(op)
    window, _, base, _, padding = window_attributes(
        kw, ir.RankedTensorType(op.operands[0].type).rank)
    return all(w == 1 for w in window) and (
        any(b != 1 for b in base) or any(p != [0, 0] for p in padding))


def merge_edge_pad(op: ir.Operation):
    """A pad of a pad by the same value, one of them with interior padding: one pad where the
    outer is edge-only and one pad can say it, else the outer pad of the fenced inner one; a
    pad of what IREE lowers as a pad of a computed value by another value: the outer pad of the
    fenced inner one; else None."""
    x, value = op.operands
    inner = x.owner
    if not isinstance(inner, ir.OpView | ir.Operation) or not _lowered_as_pad(inner):
        return None
    low, high, interior = _padding(op)
    if not _same_value(value, inner.operands[1]):
        if isinstance(inner.operands[0], ir.BlockArgument):
            return None
        return [stablehlo.pad(fence([x])[0], value, edge_padding_low=low,
                              edge_padding_high=high, interior_padding=interior)]
    if inner.name != "stablehlo.pad":
        return None
    inner_low, inner_high, inner_interior = _padding(inner)
    if not any(interior + inner_interior):
        return None
    if any(interior) or any(a < 0 < b for a, b in zip(inner_low + inner_high, low + high)):
        return [stablehlo.pad(fence([x])[0], value, edge_padding_low=low,
                              edge_padding_high=high, interior_padding=interior)]
    return [stablehlo.pad(inner.operands[0], value,
                          edge_padding_low=[a + b for a, b in zip(inner_low, low)],
                          edge_padding_high=[a + b for a, b in zip(inner_high, high)],
                          interior_padding=inner_interior)]


@dataclasses.dataclass
class MergeEdgePads(RulesPass):
    """Merge a pad of an interior pad by the same value into one pad (IREE folded such pairs
    wrongly), or fence the inner pad where one pad cannot say it or the values differ."""

    NAME = "shlo-merge-edge-pads"
    RULES = {"stablehlo.pad": merge_edge_pad}
