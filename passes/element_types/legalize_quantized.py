"""shlo-legalize-quantized: compute quantized tensors on their storage integers, as the spec
defines each op.

Every value of a `!quant.uniform` type (op results, block arguments, function signatures)
becomes a tensor of its storage type (u8 -> ui8, i4 -> i4, ...). The ops that compute
(elementwise arithmetic, compare, clamp, dot_general, convolution, uniform_quantize,
uniform_dequantize) become the spec's `dequantize_op_quantize`: storage minus zero point in a
wider integer, converted to the expressed type, times the scale (per axis where the type is);
the op in the expressed type; then `x / scale + zero_point`, clamped to the storage range,
rounded to nearest even and converted to the storage type. Data movement (reshape, gather,
scatter, sort, pad, select, reduce, while, ...) carries the storage values as they are; the
ops inside their regions are rewritten like any other. bitcast_convert to or from a quantized
type is a bitcast of the storage. Anything else on a quantized tensor is rejected by name.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect import types as T
from shlo.errors import PassError
from ..lib import builders as extras
from ..base import Pass, nested_ops
from ..lib.expr import Num, attributes as chlo_attributes, const, runtime_shape, with_element

# ops computed as dequantize -> the op in the expressed type -> quantize
COMPUTE = frozenset("stablehlo." + n for n in (
    "abs add atan2 cbrt ceil clamp cosine divide exponential exponential_minus_one floor log "
    "log_plus_one logistic maximum minimum multiply negate power remainder round_nearest_afz "
    "round_nearest_even rsqrt sign sine sqrt subtract tan tanh reduce_precision compare "
    "dot_general dot convolution uniform_quantize uniform_dequantize").split())
# ops that move storage values unchanged
CARRY = frozenset("stablehlo." + n for n in (
    "reshape transpose broadcast_in_dim slice dynamic_slice dynamic_update_slice concatenate "
    "pad gather scatter reverse select sort reduce reduce_window select_and_scatter map while "
    "if case return optimization_barrier tuple get_tuple_element dynamic_broadcast_in_dim "
    "dynamic_reshape real_dynamic_slice dynamic_pad dynamic_gather get_dimension_size "
    "all_gather all_to_all collective_permute collective_broadcast all_reduce "
    "reduce_scatter").split()) | {"func.return", "func.call", "func.func"}


def _is_quant(t: ir.Type) -> bool:
    shaped = t.maybe_downcast()
    return isinstance(shaped, ir.RankedTensorType) and T.is_quantized(shaped.element_type)


def _element(t: ir.Type) -> ir.Type:
    return ir.RankedTensorType(t).element_type


def storage_type(t: ir.Type) -> ir.Type:
    """The tensor type that holds `t`'s storage integers (the type itself when not quantized)."""
    if not _is_quant(t):
        return t
    p = T.quant_params(_element(t))
    return with_element(t, p.storage_type)


def _param(values, like: ir.Value, axis, element: ir.Type) -> Num:
    """One scale or zero point per tensor (a splat like `like`) or per slice of `axis`."""
    if axis is None:
        return Num(const(values[0], like, element))
    t = ir.RankedTensorType(like.type)
    vector = stablehlo.constant(np.array(values), result_type=ir.RankedTensorType.get(
        [len(values)], element))
    out = with_element(t, element)
    if t.has_static_shape:
        return Num(stablehlo.broadcast_in_dim(vector, broadcast_dimensions=[axis],
                                              result_type=out))
    return Num(extras.dynamic_broadcast_in_dim(vector, runtime_shape(like), [axis], out))


def _wide_int(p: T.QuantParams) -> ir.Type:
    return ir.IntegerType.get_signless(64 if ir.IntegerType(p.storage_type).width > 16 else 32)


def dequantize(x: ir.Value, qt: ir.Type, expressed: ir.Type | None = None) -> Num:
    """The spec's dequantize of storage values `x` of quantized element type `qt`:
    (x - zero_point) * scale in the expressed type (the difference taken in a wider integer)."""
    p = T.quant_params(qt)
    axis, wide = p.quantization_dimension, _wide_int(p)
    diff = Num(x).to(wide) - _param(p.zero_points, x, axis, wide)
    value = diff.to(p.expressed_type) * _param(p.scales, x, axis, p.expressed_type)
    return value if expressed is None else value.to(expressed)


def _bound(v: int, et: ir.Type, toward_zero: bool) -> float:
    """`v` in the expressed type, stepped toward zero when it does not convert exactly (the
    i32 range in f32), so that the convert back stays in range."""
    import ml_dtypes  # noqa: F401  (numpy names for bf16)
    dtype = np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}.get(
        str(et), "bfloat16" if str(et) == "bf16" else np.float32))
    f = dtype.type(v)
    if toward_zero and abs(int(f)) > abs(v):
        f = np.nextafter(f, dtype.type(0))
    return float(f)


def quantize(x: Num, qt: ir.Type) -> ir.Value:
    """The spec's quantize of float values `x` to storage values of quantized type `qt`:
    round_nearest_even(clamp(min, x / scale + zero_point, max)) in the expressed type."""
    p = T.quant_params(qt)
    et, axis = p.expressed_type, p.quantization_dimension
    x = x.to(et)
    scaled = x / _param(p.scales, x.value, axis, et) + _param(
        [float(z) for z in p.zero_points], x.value, axis, et)
    lo = x.like(_bound(p.storage_min, et, True))
    hi = x.like(_bound(p.storage_max, et, True))
    rounded = Num(stablehlo.round_nearest_even(stablehlo.clamp(lo.value, scaled.value, hi.value)))
    return rounded.to(p.storage_type).value


def _compute(op: ir.Operation, operand_types: list, result_types: list) -> list[ir.Value]:
    """`op` on the (now storage) operands, by the spec's dequantize_op_quantize."""
    name = op.name
    result_q = [_is_quant(t) for t in result_types]
    out_expressed = [T.quant_params(_element(t)).expressed_type if q else None
                     for t, q in zip(result_types, result_q)]
    if name == "stablehlo.uniform_quantize":
        x = op.operands[0]
        value = dequantize(x, _element(operand_types[0])) if _is_quant(operand_types[0]) \
            else Num(x)
        return [quantize(value, _element(result_types[0]))]
    if name == "stablehlo.uniform_dequantize":
        return [dequantize(op.operands[0], _element(operand_types[0]),
                           _element(result_types[0])).value]
    target = next((e for e in out_expressed if e is not None), None)
    operands = []
    for v, t in zip(op.operands, operand_types):
        operands.append(dequantize(v, _element(t), target).value if _is_quant(t) else v)
    attributes = chlo_attributes(op)
    if name == "stablehlo.compare" and "compare_type" in attributes:
        attributes["compare_type"] = ir.Attribute.parse("#stablehlo<comparison_type FLOAT>")
    float_types = [with_element(t, e) if e is not None else t
                   for t, e in zip(result_types, out_expressed)]
    new = ir.Operation.create(name, results=float_types, operands=operands,
                              attributes=attributes, loc=op.location)
    return [quantize(Num(r), _element(t)) if q else r
            for r, t, q in zip(new.results, result_types, result_q)]


def _constant(op: ir.Operation):
    raise PassError(f"shlo-legalize-quantized: a stablehlo.constant of quantized type "
                    f"{op.results[0].type} is not supported (quantize a float constant)", at=op)


def _quant_ops(func: ir.Operation) -> list:
    """(op, operand types, result types) of every op that touches a quantized type."""
    found = []
    for op in nested_ops(func):
        types = [v.type for v in op.operands] + [r.type for r in op.results] + [
            a.type for region in op.regions for block in region.blocks for a in block.arguments]
        if op.name == "func.func":
            continue
        if not any(_is_quant(t) for t in types):
            continue
        if op.name == "stablehlo.constant":
            _constant(op)
        if op.name not in COMPUTE and op.name not in CARRY and op.name != "stablehlo.bitcast_convert":
            shown = ", ".join(sorted({str(t) for t in types if _is_quant(t)}))
            raise PassError(f"shlo-legalize-quantized: {op.name} on quantized tensors is not "
                            f"supported ({shown})", at=op)
        found.append((op, [v.type for v in op.operands], [r.type for r in op.results]))
    return found


def _retype(func: ir.Operation) -> None:
    """Every quantized value in `func` (and its signature) as its storage type."""
    for op in nested_ops(func):
        for region in op.regions:
            for block in region.blocks:
                for a in block.arguments:
                    a.set_type(storage_type(a.type))
        if op.name != "func.func":
            for r in op.results:
                r.set_type(storage_type(r.type))
    ft = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [storage_type(t) for t in ft.inputs], [storage_type(t) for t in ft.results]))


def _legalize_function(func: ir.Operation) -> None:
    ops = _quant_ops(func)
    _retype(func)
    for op, operand_types, result_types in ops:
        if op.name == "stablehlo.bitcast_convert":
            if op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
            continue
        if op.name not in COMPUTE:
            continue
        with ir.InsertionPoint(op), op.location:
            values = _compute(op, operand_types, result_types)
        for r, v in zip(op.results, values):
            r.replace_all_uses_with(v)
        op.erase()


@dataclasses.dataclass
class LegalizeQuantized(Pass):
    """Compute quantized tensors on their storage integers, by the spec's definitions."""

    NAME = "shlo-legalize-quantized"

    def run(self, op: ir.Operation) -> None:
        funcs = [f for f in nested_ops(op, "func.func") if len(f.regions[0].blocks)]
        with op.context, ir.Location.unknown():
            for f in funcs:
                if any(_is_quant(t) for o in nested_ops(f) for t in
                       [*(v.type for v in o.operands), *(r.type for r in o.results)]) or \
                        any(_is_quant(t) for t in ir.FunctionType(ir.TypeAttr(
                            f.attributes["function_type"]).value).inputs):
                    _legalize_function(f)
