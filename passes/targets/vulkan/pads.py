"""Vulkan quirk rewrite of pads by a run-time value: the padding written by a select in a
dispatch (docs/iree_gaps.md#vk-run-time-padding-value-pads-by-a-value-computed-at-run-time)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ...lib.expr import is_complex


def run_time_padding_value(op: ir.Operation):
    """A static pad whose padding value an op computes (not a constant) as
    select(pad(true, false), pad(x, 0), broadcast(value)), the same pad of a mask and of x by
    zero; else None."""
    x, value = op.operands
    t, out = ir.RankedTensorType(x.type), ir.RankedTensorType(op.results[0].type)
    if isinstance(value.owner, ir.Block) or value.owner.name == "stablehlo.constant" or \
            not out.has_static_shape or is_complex(t.element_type):
        return None
    edges = {name: list(ir.DenseI64ArrayAttr(op.attributes[name])) for name in (
        "edge_padding_low", "edge_padding_high", "interior_padding")}
    i1 = ir.IntegerType.get_signless(1)
    scalar = ir.RankedTensorType.get([], t.element_type)
    zero = stablehlo.constant(0, result_type=scalar)
    padded = stablehlo.pad(x, zero, result_type=out, **edges)
    inside = stablehlo.pad(stablehlo.constant(True, result_type=ir.RankedTensorType.get(
        t.shape, i1)), stablehlo.constant(False, result_type=ir.RankedTensorType.get([], i1)),
        result_type=ir.RankedTensorType.get(out.shape, i1), **edges)
    fill = stablehlo.broadcast_in_dim(value, broadcast_dimensions=[], result_type=out)
    return [stablehlo.select(inside, padded, fill)]
