"""Vulkan quirk rewrites of bf16 values: iota, dot_general and reduce computed in f32 and
rounded to bf16 on the bits; f32 values around them stored first (docs/iree_gaps.md)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ...element_types.round_narrow_float_converts import to_bf16_on_bits
from ...base import defined_by, is_splat_constant
from ...lib.builders import fusion_barrier
from ...lib.elementwise import ELEMENTWISE_OPS
from ...lib.expr import Num, attributes, clone_retyped, element_of, with_element


def bf16_iota(op: ir.Operation):
    """A bf16 iota counted in f32, rounded to bf16 on the bits."""
    t = ir.RankedTensorType(op.results[0].type)
    if str(t.element_type) != "bf16":
        return None
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    counted = Num(stablehlo.iota(iota_dimension=dimension,
                                 result_type=with_element(t, ir.F32Type.get())))
    return [to_bf16_on_bits(counted).value]


def _consumer_barrier(value: ir.Value) -> ir.Value:
    """`iree_tensor_ext.compute_barrier.end`: the value, unchanged, with none of its consumers
    fused into its producer's dispatch."""
    return ir.Operation.create("iree_tensor_ext.compute_barrier.end", results=[value.type],
                               operands=[value]).result


def bf16_dot(op: ir.Operation):
    """A dot_general with bf16 operands or result: the product of the operands widened to f32
    (exact; each widening a dispatch of its own) in f32, rounded to bf16 once where the result
    is bf16 (`fence_bf16_rounded_product` then stores the f32 product first)."""
    result = ir.RankedTensorType(op.results[0].type)
    operands = list(op.operands)
    if not result.has_static_shape or "bf16" not in (
            str(result.element_type), *(str(element_of(v)) for v in operands)):
        return None
    operands = [fusion_barrier(Num(v).to("f32").value) if str(element_of(v)) == "bf16" else v
                for v in operands]
    wide = ir.Operation.create("stablehlo.dot_general",
                               results=[with_element(result, ir.F32Type.get())],
                               operands=operands, attributes=attributes(op)).result
    if str(result.element_type) == "f32":
        return [wide]
    if str(result.element_type) != "bf16":
        return [Num(wide).to(str(result.element_type)).value]
    return [to_bf16_on_bits(Num(wide)).value]


def _f32_for_bf16(t: ir.Type) -> ir.Type:
    shaped = ir.RankedTensorType(t)
    return with_element(shaped, ir.F32Type.get()) if str(shaped.element_type) == "bf16" else t


def bf16_reduce(op: ir.Operation):
    """A reduce over bf16 values: in f32 (operands, inits and body), each result rounded to
    bf16 once."""
    if not any(str(element_of(v)) == "bf16" for v in op.operands):
        return None
    wide = [Num(v).to("f32").value if str(element_of(v)) == "bf16" else v for v in op.operands]
    half = len(wide) // 2
    body = op.regions[0].blocks[0]
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]

    def cloned_body(*args):
        return clone_retyped(body, args, _f32_for_bf16)

    results = stablehlo.reduce(wide[:half], wide[half:], dimensions=dimensions, body=cloned_body)
    results = results if isinstance(results, (list, tuple)) else [results]
    return [to_bf16_on_bits(Num(r)).value if str(element_of(old)) == "bf16" else r
            for r, old in zip(results, op.results)]


def fence_widened_bf16_inputs(reduce: ir.Operation) -> None:
    """A reduce's operands converted from bf16 to f32 behind fusion barriers."""
    for i, operand in enumerate(list(reduce.operands)[:len(reduce.operands) // 2]):
        producer = operand.owner
        if (isinstance(producer, ir.Block) or producer.name != "stablehlo.convert"
                or str(element_of(producer.operands[0])) != "bf16"
                or not ir.RankedTensorType(operand.type).has_static_shape):
            continue
        with ir.InsertionPoint(reduce), reduce.location:
            reduce.operands[i] = fusion_barrier(operand)


# ops that move values without computing: `_rounded_to_bf16` looks through them
_SHAPING = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.broadcast_in_dim",
            "stablehlo.slice")     # (vk-aligned-matmul-columns slices a product)


def _rounded_to_bf16(value: ir.Value, depth: int = 12) -> bool:
    """Whether elementwise users of the value (seen through reshapes, transposes and
    broadcasts) compute a bf16 value from it: a convert, or rounding on the bits."""
    seen, frontier = set(), [value]
    for _ in range(depth):
        users = []
        for v in frontier:
            for use in v.uses:
                user = use.owner
                if (user.name not in ELEMENTWISE_OPS and user.name not in _SHAPING) or len(
                        user.results) != 1:
                    continue
                if str(element_of(user.results[0])) == "bf16":
                    return True
                if user.operation not in seen:
                    seen.add(user.operation)
                    users.append(user.results[0])
        if not users:
            return False
        frontier = users
    return False


def fence_bf16_rounded_product(op: ir.Operation) -> None:
    """A dot_general or convolution whose f32 result is rounded to bf16 stores that result
    first, behind a consumer barrier."""
    result = op.results[0]
    if str(element_of(result)) != "f32" or not ir.RankedTensorType(
            result.type).has_static_shape or not _rounded_to_bf16(result):
        return
    with ir.InsertionPoint.after(op), op.location:
        fenced = _consumer_barrier(result)
    result.replace_all_uses_except(fenced, fenced.owner.operation)


def _widened_bf16(value: ir.Value) -> ir.Value | None:
    """The bf16 value that `value` is an exact f32 convert of, else None."""
    convert = defined_by(value, "stablehlo.convert")
    if convert is None or str(element_of(convert.operands[0])) != "bf16":
        return None
    return convert.operands[0]


def _bf16_splat(value: ir.Value):
    """(bf16 value to reuse, or None; the number) when `value` is a splat f32 constant exact in
    bf16 or the f32 convert of a splat bf16 constant, else None. Builds nothing."""
    narrow = _widened_bf16(value)
    if narrow is not None:
        constant = defined_by(narrow, "stablehlo.constant")
        return (narrow, None) if constant is not None and is_splat_constant(constant) else None
    constant = defined_by(value, "stablehlo.constant")
    if constant is None or not is_splat_constant(constant) or str(element_of(value)) != "f32":
        return None
    number = np.float32(ir.DenseElementsAttr(constant.attributes["value"]).get_splat_value().value)
    exact = np.isnan(number) or (
        number.astype(ml_dtypes.bfloat16).astype(np.float32).tobytes() == number.tobytes())
    return (None, number) if exact else None


def _bf16_exact(value: ir.Value) -> bool:
    return _bf16_splat(value) is not None


def _as_bf16_constant(value: ir.Value) -> ir.Value | None:
    """A bf16 scalar of the same value as `value` (see _bf16_splat), or None."""
    found = _bf16_splat(value)
    if found is None:
        return None
    narrow, number = found
    if narrow is not None:
        return narrow
    t = with_element(value.type, ir.BF16Type.get())
    return stablehlo.constant(ir.DenseElementsAttr.get(
        np.array(number.astype(ml_dtypes.bfloat16)).reshape(t.shape), type=t))


def _padded_bf16(x: ir.Value, pad_value: ir.Value, low, high, interior) -> ir.Value:
    """f32(pad(x, pad_value, ...)) for bf16 `x` and a bf16 scalar `pad_value`."""
    padded = stablehlo.pad(x, pad_value, edge_padding_low=list(low), edge_padding_high=list(high),
                           interior_padding=list(interior))
    return Num(padded).to("f32").value


def pad_before_widening(op: ir.Operation):
    """A pad (or a reduce_window's padding and base dilation, but a scan's) of f32 converted
    from bf16, with a bf16-exact padding value: the bf16 padded first, then converted."""
    if op.name == "stablehlo.pad":
        x = _widened_bf16(op.operands[0])
        value = None if x is None else _as_bf16_constant(op.operands[1])
        if value is None:
            return None
        a = attributes(op)
        return [_padded_bf16(x, value, a["edge_padding_low"], a["edge_padding_high"],
                             a["interior_padding"])]
    half = len(op.operands) // 2
    a = attributes(op)
    rank = ir.RankedTensorType(op.operands[0].type).rank
    padding = np.asarray(a.get("padding", np.zeros((rank, 2), np.int64))).reshape(rank, 2)
    dilations = list(a.get("base_dilations", [1] * rank))
    window = list(a["window_dimensions"])
    shape = ir.RankedTensorType(op.operands[0].type).shape
    if (not padding.any() and all(d == 1 for d in dilations)) or any(
            w > 1 and w >= n for w, n in zip(window, shape)):
        return None             # (a scan keeps its padding: shlo-split-long-reduce reads it)
    inputs = [_widened_bf16(v) for v in list(op.operands)[:half]]
    if any(v is None for v in inputs) or not all(_bf16_exact(v) for v in op.operands[half:]):
        return None
    inits = [_as_bf16_constant(v) for v in list(op.operands)[half:]]
    padded = [_padded_bf16(x, init, padding[:, 0], padding[:, 1], [d - 1 for d in dilations])
              for x, init in zip(inputs, inits)]
    _, kw = arguments(op)
    kw.pop("padding", None)
    kw.pop("base_dilations", None)
    body = op.regions[0].blocks[0]
    kw["body"] = lambda *args: clone_retyped(body, args, lambda t: t)
    results = stablehlo.reduce_window(padded, list(op.operands)[half:], **kw)
    return list(results) if isinstance(results, (list, tuple)) else [results]
