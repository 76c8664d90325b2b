"""shlo-legalize-convolution: the convolution attributes IREE gets wrong, made explicit
(docs/iree_gaps.md#shlo-legalize-convolution).

* a convolution of an empty operand fails to compile on Vulkan: its results are sums of no
  products, the zero constant;

* window_reversal is ignored on grouped convolutions (feature_group_count > 1, CPU and
  Vulkan: the result is the unreversed convolution's). Reversing a window dimension
  is, by the spec's definition, reversing the kernel along that spatial dimension: the pass
  reverses the kernel with stablehlo.reverse and drops the attribute, for every convolution
  (the reverse touches the small kernel tensor only).
* a stride over a spatial dimension with a single output position fails to compile when the
  window does not end at the input's end (CPU and Vulkan).
  One output position needs no stride: the stride becomes 1 and the high padding
  drops the input past the window (negative padding, next rule).
* negative padding can meet the same failure; the spec pads the lhs-dilated input, and the
  pass does that part with stablehlo.pad, which takes negative amounts: a dimension with
  negative padding gets its whole padding (and its lhs dilation, as interior padding, when it
  has one) from the pad, and none in the convolution.

Found by a sweep of random convolutions (1-D and 2-D, strides, padding -1..2, lhs and rhs
dilation, reversal, feature and batch groups) against the reference interpreter.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS
from ..lib.expr import attributes, element_of
from ..op_rules import RulesPass


def _convolution(op: ir.Operation, lhs: ir.Value, rhs: ir.Value, attrs: dict) -> ir.Value:
    return ir.Operation.create("stablehlo.convolution", results=[op.results[0].type],
                               operands=[lhs, rhs], attributes=attrs).result


def _i64_array(values) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _reversal(op: ir.Operation):
    attrs = attributes(op)
    if "window_reversal" not in attrs:
        return None
    reversed_ = [bool(v) for v in ir.DenseBoolArrayAttr(attrs.pop("window_reversal"))]
    rhs = op.operands[1]
    if any(reversed_):
        spatial = CONV_DIMS.decode(attrs["dimension_numbers"])["kernel_spatial_dimensions"]
        rhs = stablehlo.reverse(rhs, dimensions=[d for d, r in zip(spatial, reversed_) if r])
    return [_convolution(op, op.operands[0], rhs, attrs)]


def _negative_padding(op: ir.Operation):
    attrs = attributes(op)
    if "padding" not in attrs:
        return None
    padding = np.array(ir.DenseIntElementsAttr(attrs["padding"]), dtype=np.int64).reshape(-1, 2)
    negative = [bool((row < 0).any()) for row in padding]
    element = element_of(op.operands[0])
    if not any(negative) or not isinstance(element, (ir.IntegerType, ir.FloatType)):
        return None                                 # (quantized values: no zero to pad with)
    spatial = CONV_DIMS.decode(attrs["dimension_numbers"])["input_spatial_dimensions"]
    rank = ir.RankedTensorType(op.operands[0].type).rank
    dilation = _array(attrs, "lhs_dilation", len(spatial))
    low, high, interior = [0] * rank, [0] * rank, [0] * rank
    for i, d in enumerate(spatial):
        if negative[i]:
            low[d], high[d], interior[d] = int(padding[i][0]), int(padding[i][1]), dilation[i] - 1
            padding[i] = 0
            dilation[i] = 1
    lhs = op.operands[0]
    zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], element))
    padded = stablehlo.pad(lhs, zero, edge_padding_low=low, edge_padding_high=high,
                           interior_padding=interior)
    attrs["padding"] = _padding_attr(padding)
    attrs["lhs_dilation"] = _i64_array(dilation)
    return [_convolution(op, padded, op.operands[1], attrs)]


def _single_output_stride(op: ir.Operation):
    attrs = attributes(op)
    if "window_strides" not in attrs:
        return None
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    strides = list(ir.DenseI64ArrayAttr(attrs["window_strides"]))
    out_shape = ir.RankedTensorType(op.results[0].type).shape
    lhs_shape = ir.RankedTensorType(op.operands[0].type).shape
    rhs_shape = ir.RankedTensorType(op.operands[1].type).shape
    n = len(strides)
    padding = (np.array(ir.DenseIntElementsAttr(attrs["padding"]), dtype=np.int64).reshape(-1, 2)
               if "padding" in attrs else np.zeros((n, 2), np.int64))
    lhs_dilation = _array(attrs, "lhs_dilation", n)
    rhs_dilation = _array(attrs, "rhs_dilation", n)
    changed = False
    for i in range(n):
        size = lhs_shape[dims["input_spatial_dimensions"][i]]
        kernel = rhs_shape[dims["kernel_spatial_dimensions"][i]]
        if strides[i] == 1 or out_shape[dims["output_spatial_dimensions"][i]] != 1 \
                or ir.ShapedType.is_dynamic_size(size) or ir.ShapedType.is_dynamic_size(kernel):
            continue
        padded = (size - 1) * lhs_dilation[i] + 1 + padding[i].sum()
        window = (kernel - 1) * rhs_dilation[i] + 1
        padding[i][1] -= padded - window
        strides[i] = 1
        changed = True
    if not changed:
        return None
    attrs["window_strides"] = _i64_array(strides)
    attrs["padding"] = _padding_attr(padding)
    return [_convolution(op, op.operands[0], op.operands[1], attrs)]


def _array(attrs: dict, name: str, n: int) -> list[int]:
    return list(ir.DenseI64ArrayAttr(attrs[name])) if name in attrs else [1] * n


def _padding_attr(padding: np.ndarray) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(padding, type=ir.RankedTensorType.get(
        list(padding.shape), ir.IntegerType.get_signless(64)))


def _empty_operand(op: ir.Operation):
    """A convolution of an operand with no elements: each result is a sum of no products."""
    result = ir.RankedTensorType(op.results[0].type)
    shapes = [ir.RankedTensorType(v.type) for v in op.operands[:2]]
    if not result.has_static_shape or not all(t.has_static_shape for t in shapes) or \
            all(0 not in t.shape for t in shapes) or 0 in result.shape:
        return None
    return [stablehlo.constant(0, result_type=result)]


def _legalize(op: ir.Operation):
    return _empty_operand(op) or _reversal(op) or _single_output_stride(op) or \
        _negative_padding(op)


@dataclasses.dataclass
class LegalizeConvolution(RulesPass):
    """Rewrite window reversal into a kernel reverse, strides over one output position away,
    and negative padding into a pad."""

    NAME = "shlo-legalize-convolution"
    RULES = {"stablehlo.convolution": _legalize}
