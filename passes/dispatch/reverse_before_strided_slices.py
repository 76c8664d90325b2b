"""shlo-reverse-before-strided-slices: a reverse of a strided slice (seen through transposes
and bitcast_converts of the same width, which IREE reads as views of it) as the strided slice
of the reverse: reverse(slice(x, s:l:k)) -> slice(reverse(x), s':l':k).

IREE 3.13's llvm-cpu compile fails on every such program, at every size and element type
("LLVM Translation failed for operation: builtin.unrealized_conversion_cast"): the reverse
vectorizes to a `vector.gather` from the slice's strided view, which MLIR cannot lower to LLVM
(docs/iree_gaps.md#shlo-reverse-before-strided-slices). A slice of a reverse reads the same
elements and compiles. Along a reversed dimension of size n, the elements s, s+k, ...,
s+(m-1)k read backwards are those at n-1-(s+(m-1)k), ..., n-1-s of the reversed x. A
dynamic_slice whose rows lie apart in memory failed alike (fuzz seed 116 program 68): its
reverse is the dynamic_slice of the reverse at (n - size) - c, c the start as clamped.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import defined_by
from ..expand.index_vectors import is_static, shape_of
from ..op_rules import RulesPass
from ..shapes.refine_fold import ints


def _view(value: ir.Value) -> ir.Operation | None:
    """The transpose or same-width bitcast_convert that defines `value`, else None."""
    transpose = defined_by(value, "stablehlo.transpose")
    if transpose is not None:
        return transpose
    bitcast = defined_by(value, "stablehlo.bitcast_convert")
    if bitcast is not None and ir.ShapedType(bitcast.operands[0].type).shape == \
            ir.ShapedType(value.type).shape:
        return bitcast
    return None


def _strided_slice_below(value: ir.Value) -> bool:
    """Whether `value` is a slice with a stride other than 1, or a view (`_view`) of one."""
    while (view := _view(value)) is not None:
        value = view.operands[0]
    slice_ = defined_by(value, "stablehlo.slice")
    return slice_ is not None and any(k != 1 for k in ints(slice_, "strides"))


def _bitcast_below(bitcast: ir.Operation) -> ir.Value:
    """bitcast(transpose(y)) as transpose(bitcast(y)), bitcast(slice(y)) as slice(bitcast(y)):
    the same value, the reverse then reads the element type it read (IREE compiles no reverse
    of unsigned integers, which shlo-legalize-integer-ops has bitcast to signless already)."""
    below = bitcast.operands[0].owner
    y = below.operands[0]
    element = ir.ShapedType(bitcast.results[0].type).element_type
    y = stablehlo.bitcast_convert(y, result_type=ir.RankedTensorType.get(shape_of(y), element))
    if below.name == "stablehlo.transpose":
        return stablehlo.transpose(y, permutation=ints(below, "permutation"))
    return stablehlo.slice(y, start_indices=ints(below, "start_indices"),
                           limit_indices=ints(below, "limit_indices"),
                           strides=ints(below, "strides"))


def _strided_dynamic_slice(value: ir.Value) -> ir.Operation | None:
    """The dynamic_slice that defines `value` when it reads rows apart in memory (its innermost
    dimension narrower than its operand's) from a static operand, else None."""
    dynamic = defined_by(value, "stablehlo.dynamic_slice")
    if dynamic is None or not is_static(dynamic.operands[0]):
        return None
    shape, sizes = shape_of(dynamic.operands[0]), shape_of(value)
    return dynamic if len(shape) > 1 and sizes[-1] < shape[-1] else None


def _reverse_before_dynamic_slice(dynamic: ir.Operation, dims: list) -> ir.Value:
    """dynamic_slice(reverse(x)) at the mirrored starts of the reversed dimensions: the start
    clamped as dynamic_slice clamps it, c, becomes (n - size) - c."""
    x, starts = dynamic.operands[0], list(dynamic.operands[1:])
    shape, sizes = shape_of(x), ints(dynamic, "slice_sizes")
    for d in dims:
        t = starts[d].type
        top = stablehlo.constant(shape[d] - sizes[d], result_type=t)
        clamped = stablehlo.clamp(stablehlo.constant(0, result_type=t), starts[d], top)
        starts[d] = stablehlo.subtract(top, clamped)
    return stablehlo.dynamic_slice(stablehlo.reverse(x, dimensions=list(dims)), starts,
                                   slice_sizes=list(sizes))


def reverse_before_strided_slice(op: ir.Operation):
    """reverse(slice(x)) with a stride other than 1 as slice(reverse(x)), a reverse of a
    dynamic_slice of rows apart as the dynamic_slice of the reverse; a reverse of a view of
    such a slice as the view of the reverse; else None."""
    operand, dims = op.operands[0], ints(op, "dimensions")
    if not dims or not is_static(operand) or 0 in shape_of(operand):
        return None
    dynamic = _strided_dynamic_slice(operand)
    if dynamic is not None:
        return [_reverse_before_dynamic_slice(dynamic, list(dims))]
    if not _strided_slice_below(operand):
        return None
    view = _view(operand)
    if view is not None and view.name == "stablehlo.transpose":
        permutation = ints(view, "permutation")
        inner = stablehlo.reverse(view.operands[0],
                                  dimensions=sorted(permutation[d] for d in dims))
        return [stablehlo.transpose(inner, permutation=permutation)]
    if view is not None:        # the bitcast below the view or slice under it, its type kept
        return [stablehlo.reverse(_bitcast_below(view), dimensions=list(dims))]
    slice_ = operand.owner
    x = slice_.operands[0]
    if not is_static(x):
        return None
    start, limit, strides = (ints(slice_, name) for name in
                             ("start_indices", "limit_indices", "strides"))
    start, limit, size = list(start), list(limit), shape_of(x)
    for d in dims:
        last = start[d] + (shape_of(operand)[d] - 1) * strides[d]
        start[d], limit[d] = size[d] - 1 - last, size[d] - start[d]
    return [stablehlo.slice(stablehlo.reverse(x, dimensions=list(dims)), start_indices=start,
                            limit_indices=limit, strides=list(strides))]


@dataclasses.dataclass
class ReverseBeforeStridedSlices(RulesPass):
    """Reverse a strided slice's operand and slice it, not the slice (IREE's llvm-cpu compile
    failed on a reverse of a strided slice)."""

    NAME = "shlo-reverse-before-strided-slices"
    RULES = {"stablehlo.reverse": reverse_before_strided_slice}
