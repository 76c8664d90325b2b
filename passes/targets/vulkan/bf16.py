"""Vulkan quirk rewrites of bf16 values: iota, dot_general and reduce computed in f32 and
rounded to bf16 on the bits; f32 values around them stored first (docs/iree_gaps.md)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ...element_types.round_narrow_float_converts import to_bf16_on_bits
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
_SHAPING = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.broadcast_in_dim")


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
