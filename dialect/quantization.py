"""StableHLO quantization ops: uniform_quantize and uniform_dequantize, declared as data with
the spec's constraints. Quantized element types are ``!quant.uniform`` (see
`types.quant_type`); uniform_quantize's result type names the quantization, so it is required.
"""
from __future__ import annotations

from . import types as T
from .opdef import Check, OpDef, Operand

_QUANT = frozenset({T.QUANT})


def _same_shape(b):
    if not T.same_shape(T.shape(b.operand), T.shape(b.result_type)):
        return f"result_type {b.result_type} must have the shape of operand {b.operand}"


def _expressed(b):
    """(C2) expressed_type(result) = is_float(operand) ? element_type(operand) :
    expressed_type(operand)."""
    et = T.elem(b.operand)
    want = T.quant_params(et).expressed_type if T.is_quantized(et) else et
    got = T.quant_params(T.elem(b.result_type)).expressed_type
    if got != want:
        return (f"result_type {b.result_type} must express {want} (the operand's "
                f"{'expressed ' if T.is_quantized(et) else 'element '}type)")


UNIFORM_QUANTIZE = OpDef(
    "stablehlo.uniform_quantize", [Operand("operand", T.FP | _QUANT)],
    result_type="required", result_classes=_QUANT,
    checks=[Check("C1", _same_shape), Check("C2", _expressed)],
    infer=lambda b: b.result_type)

UNIFORM_DEQUANTIZE = OpDef(
    "stablehlo.uniform_dequantize", [Operand("operand", _QUANT)],
    result_id="C1", result_element_id="C2",
    infer=lambda b: T.with_shape(b.operand, T.shape(b.operand),
                                 T.quant_params(T.elem(b.operand)).expressed_type))

CHAPTER = "quantization"
OPS: list[OpDef] = [UNIFORM_QUANTIZE, UNIFORM_DEQUANTIZE]
