"""Vulkan quirk rewrite of slices: a strided slice of a value with one dimension above 1 as
the slice of its 1-D reshape (docs/iree_gaps.md#vk-row-strided-slice-strided-slices-of-a-1xn-row)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo


def row_strided_slice(op: ir.Operation):
    """A static slice, strided along the one dimension of its operand above 1 (x[:, ::2] of
    a 1xN x), as reshape(slice(reshape(x, [N]))); else None."""
    t = ir.RankedTensorType(op.operands[0].type)
    out = ir.RankedTensorType(op.results[0].type)
    if not t.has_static_shape or t.rank < 2 or 0 in out.shape:
        return None
    wide = [d for d, n in enumerate(t.shape) if n != 1]
    strides = list(ir.DenseI64ArrayAttr(op.attributes["strides"]))
    if len(wide) != 1 or strides[wide[0]] == 1:
        return None
    d = wide[0]
    starts = list(ir.DenseI64ArrayAttr(op.attributes["start_indices"]))
    limits = list(ir.DenseI64ArrayAttr(op.attributes["limit_indices"]))
    row = stablehlo.reshape(op.operands[0], result_type=ir.RankedTensorType.get(
        [t.shape[d]], t.element_type))
    part = stablehlo.slice(row, start_indices=[starts[d]], limit_indices=[limits[d]],
                           strides=[strides[d]], result_type=ir.RankedTensorType.get(
                               [out.shape[d]], t.element_type))
    return [stablehlo.reshape(part, result_type=out)]
