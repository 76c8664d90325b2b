"""shlo-convolution-to-dots: a convolution with wide channels as a sum of matmuls.

A convolution is, for each position p of its window, a matmul of the input's shifted (and
strided) spatial slice, [batch * output positions, input features], by the kernel's
[input features, output features] matrix at p, summed over p. On an AVX2 CPU, IREE
data-tiles those matmuls into much faster code than its direct convolution; narrow matmuls
(few input or output features) lose, and with AVX-512 IREE's direct convolution is fast
already (docs/iree_gaps.md#shlo-convolution-to-dots). So the cpu target adds this pass only
where the CPU has AVX2 and lacks AVX-512 (shlo.pipelines.cpu_tuning.host_passes).

Rewritten: f32 convolutions with static shapes, no feature or batch groups, 2 to
MAX_WINDOW window positions, at least MIN_INPUT_FEATURES input and MIN_OUTPUT_FEATURES
output features (a 1x1 convolution is one matmul already).
Padding and lhs dilation become one stablehlo.pad (interior padding for the dilation),
strides and rhs dilation the slices' strides and offsets, window reversal the order the
kernel positions are read in.
"""
from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from shlo.dialect.types import DYN
from ..lib import builders as extras
from ..lib.expr import Num, attributes, is_narrow_float
from ..op_rules import RulesPass

MAX_WINDOW = 49               # window positions (7x7); each one is a matmul and an add
MIN_INPUT_FEATURES = 8        # the matmuls' contraction
MIN_OUTPUT_FEATURES = 16      # the matmuls' columns


def _array(attrs: dict, name: str, n: int, default: int) -> list[int]:
    return [int(v) for v in ir.DenseI64ArrayAttr(attrs[name])] if name in attrs \
        else [default] * n


def _transpose(x: ir.Value, permutation: list[int]) -> ir.Value:
    if permutation == sorted(permutation):
        return x
    return stablehlo.transpose(x, permutation=permutation)


def group_counts(attrs: dict) -> tuple[int, int]:
    """A convolution's (feature_group_count, batch_group_count), 1 where absent."""
    features, batches = (ir.IntegerAttr(attrs[name]).value if name in attrs else 1
                         for name in ("feature_group_count", "batch_group_count"))
    return features, batches


def _eligible(op: ir.Operation, attrs: dict, dims: dict) -> bool:
    types = [ir.RankedTensorType(v.type) for v in (*op.operands, op.results[0])]
    if not all(t.has_static_shape and str(t.element_type) == "f32" for t in types):
        return False
    lhs, rhs, _ = types
    window = [rhs.shape[d] for d in dims["kernel_spatial_dimensions"]]
    return (group_counts(attrs) == (1, 1) and 1 < math.prod(window) <= MAX_WINDOW
            and rhs.shape[dims["kernel_input_feature_dimension"]] >= MIN_INPUT_FEATURES
            and rhs.shape[dims["kernel_output_feature_dimension"]] >= MIN_OUTPUT_FEATURES)


def _as_dots(op: ir.Operation):
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    if not _eligible(op, attrs, dims):
        return None
    return [sum_of_dots(op)]


def sum_of_dots(op: ir.Operation) -> ir.Value:
    """A convolution (feature groups allowed, no batch groups) as the sum over its window
    positions of (the padded input's shifted, strided slice as [rows, input features]) x
    (the kernel's matrix there), batched over feature groups. Spatial and batch sizes may be
    run-time sizes: the slices are then `tensor.extract_slice`s sized by the window counts
    computed once, collapsed and expanded with tensor ops (IREE compiles neither a
    convolution over run-time spatial sizes nor a dot_general with several run-time free
    dimensions; docs/iree_gaps.md#shlo-convolution-to-dots)."""
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    lhs, rhs = op.operands
    result = ir.RankedTensorType(op.results[0].type)
    element = result.element_type
    if is_narrow_float(element):
        # narrow floats: every product and the sum in f32, rounded once at the end (as
        # shlo-accumulate-in-f32 does for one convolution)
        lhs, rhs = (Num(v).to("f32").value for v in (lhs, rhs))
        element = ir.F32Type.get()
    n = len(dims["input_spatial_dimensions"])
    strides = _array(attrs, "window_strides", n, 1)
    lhs_dilation = _array(attrs, "lhs_dilation", n, 1)
    rhs_dilation = _array(attrs, "rhs_dilation", n, 1)
    padding = (np.array(ir.DenseIntElementsAttr(attrs["padding"]), dtype=np.int64).reshape(-1, 2)
               if "padding" in attrs else np.zeros((n, 2), np.int64))
    reversed_ = ([bool(v) for v in ir.DenseBoolArrayAttr(attrs["window_reversal"])]
                 if "window_reversal" in attrs else [False] * n)
    precision = ({"precision_config": [enum_name(a) for a in
                                       ir.ArrayAttr(attrs["precision_config"])]}
                 if "precision_config" in attrs else {})

    # the input as [batch, spatial..., features], padded and dilated
    x = _transpose(lhs, [dims["input_batch_dimension"], *dims["input_spatial_dimensions"],
                         dims["input_feature_dimension"]])
    if padding.any() or any(d != 1 for d in lhs_dilation):
        zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get(
            [], ir.RankedTensorType(lhs.type).element_type))
        x = stablehlo.pad(x, zero, edge_padding_low=[0, *padding[:, 0], 0],
                          edge_padding_high=[0, *padding[:, 1], 0],
                          interior_padding=[0, *(d - 1 for d in lhs_dilation), 0])
    x_shape = ir.RankedTensorType(x.type).shape
    x_element = ir.RankedTensorType(x.type).element_type
    batch, features = x_shape[0], x_shape[-1]
    # the kernel as [spatial..., input features, output features]
    w = _transpose(rhs, [*dims["kernel_spatial_dimensions"],
                         dims["kernel_input_feature_dimension"],
                         dims["kernel_output_feature_dimension"]])
    w_shape = ir.RankedTensorType(w.type).shape
    w_element = ir.RankedTensorType(w.type).element_type
    window, outputs = w_shape[:n], w_shape[-1]
    groups, _ = group_counts(attrs)
    out_spatial = [result.shape[d] for d in dims["output_spatial_dimensions"]]
    static = DYN not in (batch, *out_spatial)
    rows = batch * math.prod(out_spatial) if static else DYN
    # run-time sizes as indices: the batch's own, and the window counts of the padded input
    sizes = [batch if batch != DYN else extras.dim(x, 0)]
    for k, count in enumerate(out_spatial):
        span = (window[k] - 1) * rhs_dilation[k] + 1
        sizes.append(count if count != DYN else extras.window_count(x, k + 1, span, strides[k]))

    total = None
    for position in itertools.product(*(range(k) for k in window)):
        start = [p * d for p, d in zip(position, rhs_dilation)]
        flat = ir.RankedTensorType.get([rows, features], x_element)
        if static:
            shifted = stablehlo.slice(
                x, start_indices=[0, *start, 0],
                limit_indices=[batch, *(s + (o - 1) * t + 1 for s, o, t in
                                        zip(start, out_spatial, strides)), features],
                strides=[1, *strides, 1])
            shifted = stablehlo.reshape(shifted, result_type=flat)
        else:
            shifted = extras.extract_slice(
                x, [0, *start, 0], [*sizes, features], [1, *strides, 1],
                ir.RankedTensorType.get([batch, *out_spatial, features], x_element))
            shifted = extras.collapse_shape(shifted, [list(range(n + 1)), [n + 1]], flat)
        at = [k - 1 - p if r else p for p, k, r in zip(position, window, reversed_)]
        matrix = stablehlo.slice(w, start_indices=[*at, 0, 0],
                                 limit_indices=[*(a + 1 for a in at), *w_shape[-2:]])
        matrix = stablehlo.reshape(matrix, result_type=ir.RankedTensorType.get(
            w_shape[-2:], w_element))
        if groups == 1:
            term = stablehlo.dot_general(shifted, matrix, lhs_contracting_dimensions=[1],
                                         rhs_contracting_dimensions=[0], **precision,
                                         result_type=ir.RankedTensorType.get([rows, outputs],
                                                                             element))
        else:
            term = _grouped_product(shifted, matrix, groups, element, precision)
        total = term if total is None else stablehlo.add(total, term)

    shape = ir.RankedTensorType.get([batch, *out_spatial, outputs], element)
    if static:
        y = stablehlo.reshape(total, result_type=shape)
    else:
        y = extras.expand_shape(total, [list(range(n + 1)), [n + 1]], shape,
                                [v for v in sizes if isinstance(v, ir.Value)])
    # y is [batch, spatial..., features]; the result's order comes from dimension_numbers
    where = {dims["output_batch_dimension"]: 0, dims["output_feature_dimension"]: n + 1,
             **{d: 1 + i for i, d in enumerate(dims["output_spatial_dimensions"])}}
    return Num(_transpose(y, [where[d] for d in range(n + 2)])).to(result.element_type).value


def _grouped_product(rows_by_features: ir.Value, matrix: ir.Value, groups: int,
                     element: ir.Type, precision: dict) -> ir.Value:
    """[rows, groups * k] x [k, groups * m] one group at a time, as one matmul batched over
    the groups: [rows, groups * m]."""
    rows, _ = ir.RankedTensorType(rows_by_features.type).shape
    k, outputs = ir.RankedTensorType(matrix.type).shape
    m = outputs // groups
    x_element = ir.RankedTensorType(rows_by_features.type).element_type
    w_element = ir.RankedTensorType(matrix.type).element_type
    split = ir.RankedTensorType.get([rows, groups, k], x_element)
    if rows == DYN:
        x = extras.expand_shape(rows_by_features, [[0], [1, 2]], split,
                                [extras.dim(rows_by_features, 0)])
    else:
        x = stablehlo.reshape(rows_by_features, result_type=split)
    w = stablehlo.reshape(matrix, result_type=ir.RankedTensorType.get([k, groups, m], w_element))
    if k == 1:
        # depthwise: nothing to sum, and IREE rejects a batched matmul of run-time size
        # contracting one element: a broadcast product
        size = extras.size_vector([(x, 0), groups, m])
        product = stablehlo.multiply(*(
            Num(extras.dynamic_broadcast_in_dim(
                v, size, [0, 1, 2], ir.RankedTensorType.get([rows, groups, m], e),
                nonexpanding=[0] if v is x and rows == DYN else [])).to(element).value
            for v, e in ((x, x_element), (w, w_element))))
    else:
        product = stablehlo.transpose(stablehlo.dot_general(
            stablehlo.transpose(x, permutation=[1, 0, 2]),
            stablehlo.transpose(w, permutation=[1, 0, 2]),
            lhs_batching_dimensions=[0], rhs_batching_dimensions=[0],
            lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[1], **precision,
            result_type=ir.RankedTensorType.get([groups, rows, m], element)),
            permutation=[1, 0, 2])
    flat = ir.RankedTensorType.get([rows, outputs], element)
    if rows == DYN:
        return extras.collapse_shape(product, [[0], [1, 2]], flat)
    return stablehlo.reshape(product, result_type=flat)


@dataclasses.dataclass
class ConvolutionToDots(RulesPass):
    """Rewrite small-window, wide-channel f32 convolutions into sums of matmuls over shifted
    slices of the padded input."""

    NAME = "shlo-convolution-to-dots"
    RULES = {"stablehlo.convolution": _as_dots}
