"""Vulkan quirk rewrites of ops IREE's SPIR-V backend failed to compile: a slice of an integer
iota as an iota of its own
(docs/iree_gaps.md#vk-sliced-iota-slices-of-an-iota-at-an-element-offset); the real or
imaginary part of a view of complex(a, b) as that view of a or b
(docs/iree_gaps.md#vk-complex-part-of-view-parts-of-views-of-complex-values)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo


def sliced_iota(op: ir.Operation):
    """A static slice of an integer iota as an iota of the slice's shape, times the stride and
    plus the start along the iota's dimension; else None."""
    source = op.operands[0]
    if not isinstance(source, ir.OpResult) or source.owner.name != "stablehlo.iota":
        return None
    out = ir.RankedTensorType(op.results[0].type)
    element = out.element_type
    if not out.has_static_shape or not isinstance(element, ir.IntegerType) or \
            element.width == 1:
        return None
    d = ir.IntegerAttr(source.owner.attributes["iota_dimension"]).value
    start = list(ir.DenseI64ArrayAttr(op.attributes["start_indices"]))[d]
    stride = list(ir.DenseI64ArrayAttr(op.attributes["strides"]))[d]
    counted = stablehlo.iota(iota_dimension=d, result_type=out)
    if stride != 1:
        counted = stablehlo.multiply(counted, stablehlo.constant(stride, result_type=out))
    if start != 0:
        counted = stablehlo.add(counted, stablehlo.constant(start, result_type=out))
    return [counted]


_VIEWS = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.slice",
          "stablehlo.broadcast_in_dim")


def complex_part_of_view(op: ir.Operation):
    """real(v) or imag(v) of a view v (reshapes, transposes, slices, broadcasts) of
    complex(a, b) as those views of a or b; else None."""
    views, value = [], op.operands[0]
    while isinstance(value, ir.OpResult) and value.owner.name in _VIEWS:
        views.append(value.owner)
        value = value.owner.operands[0]
    if not views or not isinstance(value, ir.OpResult) or value.owner.name != "stablehlo.complex":
        return None
    part = value.owner.operands[0 if op.name == "stablehlo.real" else 1]
    element = ir.RankedTensorType(part.type).element_type
    for view in reversed(views):
        shape = ir.RankedTensorType(view.results[0].type).shape
        part = ir.Operation.create(
            view.name, results=[ir.RankedTensorType.get(shape, element)], operands=[part],
            attributes={n: view.attributes[n] for n in view.attributes}).result
    return [part]
