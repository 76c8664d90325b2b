"""Vulkan quirk rewrite of reduce_window: an empty operand's windows over its padding
(docs/iree_gaps.md#vk-empty-window-operand-windows-of-an-empty-operand)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments


def empty_window_operand(op: ir.Operation):
    """A static reduce_window of empty operands with padding that gives it windows: the same
    windows over the padded, dilated operand itself (every element the init value, as the
    spec pads with it), with no padding or base dilation left; else None."""
    (inputs, inits), kw = arguments(op)
    types = [ir.RankedTensorType(v.type) for v in inputs]
    result = ir.RankedTensorType(op.results[0].type)
    if not all(t.has_static_shape for t in types) or 0 not in types[0].shape or \
            0 in result.shape:
        return None
    rank = types[0].rank
    padding, dilations = kw.pop("padding", None), kw.pop("base_dilations", None)
    padding = [[0, 0]] * rank if padding is None else [list(map(int, p)) for p in padding]
    dilations = [1] * rank if dilations is None else [int(b) for b in dilations]
    shape = [lo + hi + ((d - 1) * b + 1 if d else 0)
             for d, b, (lo, hi) in zip(types[0].shape, dilations, padding)]
    spread = [stablehlo.broadcast_in_dim(init, broadcast_dimensions=[], result_type=(
        ir.RankedTensorType.get(shape, t.element_type))) for init, t in zip(inits, types)]
    kw["result_type"] = [r.type for r in op.results]
    out = stablehlo.reduce_window(spread, list(inits), **kw)
    return list(out) if isinstance(out, (list, tuple)) else [out]
