"""Vulkan quirk rewrite of slices: a strided slice of a value with size-1 dimensions as the
slice of its reshape without them
(docs/iree_gaps.md#vk-squeezed-strided-slice-strided-slices-of-values-with-size-1-dimensions)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo


def squeezed_strided_slice(op: ir.Operation):
    """A static slice with a stride above 1 whose operand has a dimension of size 1 (x[:, ::2]
    of a 1xN or an Nx64x1 x), as reshape(slice(x without its size-1 dimensions)); else
    None."""
    t = ir.RankedTensorType(op.operands[0].type)
    out = ir.RankedTensorType(op.results[0].type)
    if not t.has_static_shape or 0 in out.shape:
        return None
    strides = list(ir.DenseI64ArrayAttr(op.attributes["strides"]))
    kept = [d for d, n in enumerate(t.shape) if n != 1]
    if len(kept) == t.rank or all(s == 1 for s in strides):
        return None
    starts = list(ir.DenseI64ArrayAttr(op.attributes["start_indices"]))
    limits = list(ir.DenseI64ArrayAttr(op.attributes["limit_indices"]))
    squeezed = stablehlo.reshape(op.operands[0], result_type=ir.RankedTensorType.get(
        [t.shape[d] for d in kept], t.element_type))
    part = stablehlo.slice(squeezed, start_indices=[starts[d] for d in kept],
                           limit_indices=[limits[d] for d in kept],
                           strides=[strides[d] for d in kept], result_type=ir.RankedTensorType.get(
                               [out.shape[d] for d in kept], t.element_type))
    return [stablehlo.reshape(part, result_type=out)]
