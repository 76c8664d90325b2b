"""shlo-legalize-dot-algorithm: dot_general with an `algorithm` as a plain dot_general.

IREE rejects any dot_general that carries the `algorithm` attribute
(docs/iree_gaps.md#shlo-legalize-dot-algorithm). The algorithm sets
the precision the operands are multiplied in and the type the products are summed in; this
pass makes both explicit: float operands are rounded to the algorithm's precision type with
stablehlo.reduce_precision when it is narrower than theirs and computed in one pass
(component count 1: e.g. tf32 -> 8 exponent and 10 mantissa bits; multi-pass algorithms such
as bf16_6x emulate f32, so they compute in full precision), and the product is summed in the
accumulation type when it is wider than the result's, then converted. Integer operands are
exact in any algorithm: the attribute is dropped.

A dot_general whose contracting dimensions hold no elements is a tensor of zeros (a sum of no
products); IREE's Vulkan compiler crashes on one: with a static result it becomes the zero
constant.
"""
from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib.expr import float_info, is_float, with_element
from ..op_rules import RulesPass

# precision type name -> (exponent bits, mantissa bits)
_PRECISION = {"tf32": (8, 10), "bf16": (8, 7), "f16": (5, 10), "f32": (8, 23), "f64": (11, 52)}


def _field(text: str, name: str) -> str | None:
    found = re.search(name + r"\s*=\s*([\w.]+)", text)
    return found.group(1) if found else None


def _rounded(value: ir.Value, precision: str | None, components: str | None) -> ir.Value:
    element = ir.RankedTensorType(value.type).element_type
    if precision not in _PRECISION or components not in (None, "1") or not is_float(element):
        return value
    exponent, mantissa = _PRECISION[precision]
    info = float_info(element)
    if mantissa >= info.mantissa_bits:
        return value
    return stablehlo.reduce_precision(value, exponent_bits=exponent, mantissa_bits=mantissa)


def _empty_contraction(op: ir.Operation):
    """A dot_general summing over no elements: zeros of the result's (static) type."""
    result_type = ir.RankedTensorType(op.results[0].type)
    lhs = ir.RankedTensorType(op.operands[0].type)
    _, numbers = arguments(op)
    contracting = list(numbers.get("lhs_contracting_dimensions") or ())
    if not result_type.has_static_shape or not lhs.has_static_shape or \
            all(lhs.shape[d] != 0 for d in contracting) or 0 in result_type.shape:
        return None
    return [stablehlo.constant(0, result_type=result_type)]


def _dot_general(op: ir.Operation):
    empty = _empty_contraction(op)
    if empty is not None:
        return empty
    if "algorithm" not in op.attributes:
        return None
    text = str(op.attributes["algorithm"])
    lhs = _rounded(op.operands[0], _field(text, "lhs_precision_type"),
                   _field(text, "lhs_component_count"))
    rhs = _rounded(op.operands[1], _field(text, "rhs_precision_type"),
                   _field(text, "rhs_component_count"))
    result_type = op.results[0].type
    result_element = ir.RankedTensorType(result_type).element_type
    accumulation = _field(text, "accumulation_type")
    wider = None
    if accumulation and is_float(result_element):
        element = ir.Type.parse(accumulation)
        if is_float(element) and float_info(element).bits > float_info(result_element).bits:
            wider = with_element(result_type, element)
    attributes = {name: op.attributes[name] for name in op.attributes if name != "algorithm"}
    dot = ir.Operation.create("stablehlo.dot_general", results=[wider or result_type],
                              operands=[lhs, rhs], attributes=attributes).result
    return [stablehlo.convert(dot, result_type=result_type) if wider else dot]


RULES = {"stablehlo.dot_general": _dot_general}


@dataclasses.dataclass
class LegalizeDotAlgorithm(RulesPass):
    """Make a dot_general's algorithm explicit (operand rounding, accumulation type) and drop
    the attribute IREE rejects."""

    NAME = "shlo-legalize-dot-algorithm"
    RULES = RULES
