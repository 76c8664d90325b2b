"""shlo-legalize-vulkan-ops: rewrite the ops IREE 3.13's SPIR-V backend rejects or computes
wrongly on Vulkan into forms it gets right, with the spec's semantics.

Measured on Mesa's lavapipe (`vulkan:llvmpipe`); the CPU computes all of these correctly, so
the Vulkan target adds this pass to shlo's default pipeline (`TargetKind.passes`) and the CPU
keeps the original ops:

* `iota` of bf16 and `convert` from any integer to bf16 fail to compile (a 32-bit to 16-bit
  spirv.Bitcast; so does a float convert to bf16 in a dispatch that reads no tensor): iota
  counts in f32, an integer becomes f64 (exact below 2^53), and the value is rounded to
  bf16's grid (to nearest even) in that type and cut to the top 16 bits of its f32, all in
  ops that compile;
* `count_leading_zeros` of 64-bit integers fails to legalize (no 64-bit ctlz in SPIR-V): it
  counts the two 32-bit halves, clz(high) or 32 + clz(low) when the high half is zero;
* signed `remainder` of the most negative integer is wrong (Rem(-2^31, 3) gives 2, not -2):
  the dividend -2^N moves to -2^N + |divisor|, which has the same remainder (both are <= 0,
  and their magnitudes differ by |divisor|); for divisor -2^N, |divisor| wraps to -2^N and the
  dividend to 0, whose remainder 0 is the right one;
* `convolution` with feature_group_count > 1 (other than depthwise: one input feature per
  group) or batch_group_count > 1 gives zeros: it becomes the spec's own definition, one
  convolution per group over slices of lhs and rhs, concatenated along the output feature
  dimension.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..dialect import stablehlo
from ..dialect.attributes import CONV_DIMS
from .chlo_expr import Num, attributes, element_of, select, shift_right_logical, with_element
from .op_rules import CANONICAL, RulesPass
from .round_narrow_float_converts import round_to_grid


def _to_bf16_on_bits(x: Num) -> Num:
    """x (f32 or f64) as bf16: rounded to nearest even in x's own type, then the top 16 bits
    of the f32, which is exact by then."""
    rounded = round_to_grid(x, ir.BF16Type.get()).to("f32")
    top = shift_right_logical(rounded.bitcast(ir.IntegerType.get_unsigned(32)), 16)
    return top.to(ir.IntegerType.get_unsigned(16)).bitcast(ir.BF16Type.get())


def _bf16_iota(op: ir.Operation):
    t = ir.RankedTensorType(op.results[0].type)
    if str(t.element_type) != "bf16":
        return None
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    counted = Num(stablehlo.iota(iota_dimension=dimension,
                                 result_type=with_element(t, ir.F32Type.get())))
    return [_to_bf16_on_bits(counted).value]


def _integer_to_bf16(op: ir.Operation):
    x = Num(op.operands[0])
    target = ir.RankedTensorType(op.results[0].type).element_type
    if str(target) != "bf16" or not isinstance(x.element, ir.IntegerType):
        return None
    return [_to_bf16_on_bits(x.to("f64")).value]


def _count_leading_zeros_64(op: ir.Operation):
    x = op.operands[0]
    element = element_of(x)
    if not isinstance(element, ir.IntegerType) or element.width != 64:
        return None
    u64, u32 = ir.IntegerType.get_unsigned(64), ir.IntegerType.get_unsigned(32)
    bits = Num(x).bitcast(u64)
    high = shift_right_logical(bits, 32).to(u32)
    low = (bits & 0xFFFFFFFF).to(u32)
    count_high = Num(stablehlo.count_leading_zeros(high.value))
    count_low = Num(stablehlo.count_leading_zeros(low.value))
    count = select(high.eq(0), count_low + 32, count_high)
    return [count.to(element).value]


def _signed_remainder(op: ir.Operation):
    lhs, rhs = (Num(v) for v in op.operands)
    element = lhs.element
    if (CANONICAL in op.attributes or not isinstance(element, ir.IntegerType)
            or element.is_unsigned or element.width == 1):
        return None
    most_negative = lhs.like(-(1 << (element.width - 1)))
    dividend = select(lhs.eq(most_negative), lhs + abs(rhs), lhs)
    remainder = stablehlo.remainder(dividend.value, rhs.value)
    remainder.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [remainder]


def _split(value: ir.Value, dimension: int, groups: int) -> list[ir.Value] | None:
    """`value` cut into `groups` equal slices along `dimension` (None: a dynamic size)."""
    shape = ir.RankedTensorType(value.type).shape
    if ir.ShapedType.is_dynamic_size(shape[dimension]):
        return None
    size = shape[dimension] // groups
    slices = []
    for g in range(groups):
        start = [0] * len(shape)
        limit = list(shape)
        start[dimension], limit[dimension] = g * size, (g + 1) * size
        slices.append(stablehlo.slice(value, start_indices=start, limit_indices=limit))
    return slices


def _grouped_convolution(op: ir.Operation):
    attrs = attributes(op)
    features = ir.IntegerAttr(attrs["feature_group_count"]).value
    batches = ir.IntegerAttr(attrs["batch_group_count"]).value
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    lhs, rhs = op.operands
    lhs_shape = ir.RankedTensorType(lhs.type).shape
    if batches > 1:
        groups, lhs_dimension, attr = batches, dims["input_batch_dimension"], "batch_group_count"
    elif features > 1 and lhs_shape[dims["input_feature_dimension"]] != features:
        groups, lhs_dimension, attr = features, dims["input_feature_dimension"], "feature_group_count"
    else:
        return None
    lhs_parts = _split(lhs, lhs_dimension, groups)
    rhs_parts = _split(rhs, dims["kernel_output_feature_dimension"], groups)
    result = ir.RankedTensorType(op.results[0].type)
    out_dimension = dims["output_feature_dimension"]
    if lhs_parts is None or rhs_parts is None or result.is_dynamic_dim(out_dimension):
        return None
    shape = list(result.shape)
    shape[out_dimension] //= groups
    part_type = ir.RankedTensorType.get(shape, result.element_type)
    attrs[attr] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)
    parts = [ir.Operation.create("stablehlo.convolution", results=[part_type],
                                 operands=[lhs_part, rhs_part], attributes=attrs).result
             for lhs_part, rhs_part in zip(lhs_parts, rhs_parts)]
    return [stablehlo.concatenate(parts, dimension=out_dimension)]


@dataclasses.dataclass
class LegalizeVulkanOps(RulesPass):
    """Rewrite bf16 iota, integer-to-bf16 converts, 64-bit clz, signed remainder and grouped
    convolutions for Vulkan."""

    NAME = "shlo-legalize-vulkan-ops"
    RULES = {
        "stablehlo.iota": _bf16_iota,
        "stablehlo.convert": _integer_to_bf16,
        "stablehlo.count_leading_zeros": _count_leading_zeros_64,
        "stablehlo.remainder": _signed_remainder,
        "stablehlo.convolution": _grouped_convolution,
    }
