"""shlo-convert-narrow-iota: an iota of a float type narrower than 32 bits as the convert of
an integer iota.

IREE counts such an iota in an integer of the float's width, so long f16 and f8 iotas wrap,
also without shlo's passes (docs/iree_gaps.md#shlo-convert-narrow-iota). The index counted in
i32 (i64 past 2^31) and converted rounds to the element type as the spec's iota does; the
narrow-float converts that follow are shlo-round-narrow-float-converts' to legalize.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..op_rules import RulesPass


def _counter(result: ir.RankedTensorType, dimension: int) -> ir.RankedTensorType | None:
    """The integer iota type for a narrow float `result`, or None when it needs none."""
    element = result.element_type
    if not isinstance(element, ir.FloatType) or element.width >= 32:
        return None
    size = result.shape[dimension]
    wide = not ir.ShapedType.is_dynamic_size(size) and size > 2 ** 31
    return ir.RankedTensorType.get(result.shape, ir.IntegerType.get_signless(64 if wide else 32))


def _iota(op: ir.Operation):
    result = ir.RankedTensorType(op.results[0].type)
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    counter = _counter(result, dimension)
    if counter is None:
        return None
    if op.name == "stablehlo.dynamic_iota":
        index = stablehlo.dynamic_iota(op.operands[0], iota_dimension=dimension,
                                       result_type=counter)
    else:
        index = stablehlo.iota(iota_dimension=dimension, result_type=counter)
    return [stablehlo.convert(index, result_type=result)]


@dataclasses.dataclass
class ConvertNarrowIota(RulesPass):
    """Count an iota of f16, bf16 or a narrower float in i32 and convert it."""

    NAME = "shlo-convert-narrow-iota"
    RULES = {"stablehlo.iota": _iota, "stablehlo.dynamic_iota": _iota}
