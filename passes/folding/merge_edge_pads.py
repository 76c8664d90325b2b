"""shlo-merge-edge-pads: a pad of a pad by the same padding value, one of them with interior
padding, as one pad, or with the inner pad fenced.

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
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
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


def merge_edge_pad(op: ir.Operation):
    """A pad of a pad by the same value, one of them with interior padding: one pad where the
    outer is edge-only and one pad can say it, else the outer pad of the fenced inner one;
    else None."""
    x, value = op.operands
    inner = x.owner
    if not isinstance(inner, ir.OpView | ir.Operation) or inner.name != "stablehlo.pad":
        return None
    low, high, interior = _padding(op)
    inner_low, inner_high, inner_interior = _padding(inner)
    if not any(interior + inner_interior) or not _same_value(value, inner.operands[1]):
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
    wrongly), or fence the inner pad where one pad cannot say it."""

    NAME = "shlo-merge-edge-pads"
    RULES = {"stablehlo.pad": merge_edge_pad}
