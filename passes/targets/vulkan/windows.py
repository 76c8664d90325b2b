"""Vulkan quirk rewrites of reduce_window: an empty operand's windows over its padding
(docs/iree_gaps.md#vk-empty-window-operand-windows-of-an-empty-operand); one window per
kept position as a reduce (docs/iree_gaps.md#vk-single-window-one-window-as-a-reduce); the
interior pad of a value with size-1 dimensions (a window's base dilation of a 1xN row) on its
reshape without them
(docs/iree_gaps.md#vk-squeezed-interior-pad-interior-padding-of-values-with-size-1-dimensions)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ...expand.expand_reduce_window import window_attributes
from ...lib.expr import clone_retyped, element_of, is_complex


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


def single_window(op: ir.Operation):
    """A static one-input reduce_window whose result takes one window along each dimension
    that its window spans (the others: window 1, no padding or dilation, any stride, which
    the slice takes), as a reduce over those dimensions of the window's slice of the padded,
    dilated operand; else None (complex and empty operands are left to the other entries)."""
    (inputs, inits), kw = arguments(op)
    if len(inputs) != 1:
        return None
    x, init = inputs[0], inits[0]
    t, out = ir.RankedTensorType(x.type), ir.RankedTensorType(op.results[0].type)
    if not t.has_static_shape or 0 in t.shape or is_complex(element_of(x)):
        return None
    rank = t.rank
    window, strides, base, dilation, padding = window_attributes(kw, rank)
    reduced = [d for d in range(rank) if window[d] != 1 or padding[d] != [0, 0] or base[d] != 1]
    if not reduced or any(out.shape[d] != 1 for d in reduced):
        return None
    if any(p != [0, 0] for p in padding) or any(b != 1 for b in base):
        x = stablehlo.pad(x, init, edge_padding_low=[p[0] for p in padding],
                          edge_padding_high=[p[1] for p in padding],
                          interior_padding=[b - 1 for b in base])
    shape = ir.RankedTensorType(x.type).shape
    limits = [(window[d] - 1) * dilation[d] + 1 if d in reduced else shape[d]
              for d in range(rank)]
    x = stablehlo.slice(x, start_indices=[0] * rank, limit_indices=limits,
                        strides=[dilation[d] if d in reduced else strides[d] for d in range(rank)])
    body = op.regions[0].blocks[0]
    kept = stablehlo.reduce([x], [init], dimensions=reduced,
                            body=lambda *args: clone_retyped(body, args, lambda same: same))
    return [stablehlo.reshape(kept, result_type=out)]


def squeezed_interior_pad(op: ir.Operation):
    """A static pad with interior padding whose operand has dimensions of size 1 (a 1xN row,
    shlo-expand-reduce-window's base dilation of it; an Nx32x1 value) as the pad of the
    operand reshaped without them, reshaped back, then edge-padded along them as the pad is
    (also where low and high cancel: [1, -1] moves the row out); else None."""
    x, value = op.operands
    t, out = ir.RankedTensorType(x.type), ir.RankedTensorType(op.results[0].type)
    if not t.has_static_shape or t.rank < 2 or 0 in t.shape or 0 in out.shape:
        return None
    kept = [d for d, n in enumerate(t.shape) if n != 1]
    low, high, interior = (list(ir.DenseI64ArrayAttr(op.attributes[name])) for name in (
        "edge_padding_low", "edge_padding_high", "interior_padding"))
    if len(kept) == t.rank or not any(interior[d] for d in kept):
        return None
    squeezed = stablehlo.reshape(x, result_type=ir.RankedTensorType.get(
        [t.shape[d] for d in kept], t.element_type))
    squeezed = stablehlo.pad(squeezed, value, edge_padding_low=[low[d] for d in kept],
                             edge_padding_high=[high[d] for d in kept],
                             interior_padding=[interior[d] for d in kept])
    shape = [out.shape[d] if d in kept else 1 for d in range(t.rank)]
    padded = stablehlo.reshape(squeezed, result_type=ir.RankedTensorType.get(
        shape, t.element_type))
    edges = [[0 if k in kept else p[k] for k in range(t.rank)] for p in (low, high)]
    if not any(edges[0] + edges[1]):
        return [padded]
    return [stablehlo.pad(padded, value, edge_padding_low=edges[0], edge_padding_high=edges[1],
                          interior_padding=[0] * t.rank)]
