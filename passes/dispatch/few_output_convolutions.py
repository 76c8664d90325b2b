"""shlo-few-output-convolutions: a convolution with few output positions and a large window
(a training step's weight gradient: the image convolved with the output gradient) as one
matmul per output position: that position's window of the input contracted with the kernel
over the window and the input features, both read in their own layouts.

jax writes the weight gradient of a conv layer as a convolution whose batch is the input's
channels, whose features are the examples, whose window is the whole output gradient (16x16 or
32x32, dilated by the forward stride) and whose output is the kernel's 3x3. IREE's direct
convolution runs that layout far below the machine's speed; as matmuls (each reading its
strided window of the input) it runs many times faster
(docs/iree_gaps.md#shlo-few-output-convolutions). One matmul of all positions' windows
stacked (9 copies of the input) is slower, except where the batch (the
matmuls' rows: a first layer's 3 input channels) is below STACK_BELOW: 9 matmuls of 3 rows
each pad to a data tile of 16 rows and encode their windows apart, one of 27 rows
does not (`stack-below=0` never stacks).
The input is not transposed to [batch, window..., features] first: that copy, written
transposed by both threads, is slow. Each position is its own executable (its slice's offsets
differ); a while loop over the positions, or run-time slice offsets, shared one but ran
1.1-1.8x slower (docs/performance.md, "fewer weight-gradient executables"). Rewritten:
static shapes, no groups, no lhs dilation or window reversal, no negative padding, at most MAX_OUTPUTS output
positions and at least MIN_WINDOW window positions. Padding becomes a stablehlo.pad, strides
the windows' starts, rhs dilation the slices' strides. bf16 and f16 compute in f32 and round
once (as shlo-accumulate-in-f32 does for one convolution).
"""
from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from ..lib.builders import fence
from ..lib.expr import Num, attributes, is_narrow_float
from .convolution_to_dots import group_counts
from ..op_rules import RulesPass, apply_rules

MAX_OUTPUTS = 64        # output positions: one slice of the input each
MIN_WINDOW = 16         # window positions: below, the direct convolution is fine
STACK_BELOW = 16        # a batch (the matmuls' rows) below this: all windows in one matmul


def _ints(attrs: dict, name: str, n: int) -> list[int]:
    return [int(v) for v in ir.DenseI64ArrayAttr(attrs[name])] if name in attrs else [1] * n


def _transpose(x: ir.Value, permutation: list[int]) -> ir.Value:
    return x if permutation == sorted(permutation) else stablehlo.transpose(
        x, permutation=permutation)


def _convolution(op: ir.Operation, stack_below: int = STACK_BELOW):
    return window_matmuls(op, stack_below, MAX_OUTPUTS, MIN_WINDOW)


def window_matmuls(op: ir.Operation, stack_below: int, max_outputs: int, min_window: int,
                   integers: bool = False, fenced: bool = False):
    """The convolution as one dot_general per output position over its window (a strided
    slice of the padded input), or None where it declines; `integers`: integer convolutions
    too (their product in the result's type); `fenced`: each window behind a fusion barrier."""
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    lhs, rhs = op.operands
    types = [ir.RankedTensorType(v.type) for v in (lhs, rhs, op.results[0])]
    if not all(t.has_static_shape for t in types) or group_counts(attrs) != (1, 1):
        return None
    element = types[2].element_type
    integer = integers and all(isinstance(t.element_type.maybe_downcast(), ir.IntegerType)
                               for t in types)
    if str(element) != "f32" and not is_narrow_float(element) and not integer:
        return None
    n = len(dims["input_spatial_dimensions"])
    strides, lhs_dilation = _ints(attrs, "window_strides", n), _ints(attrs, "lhs_dilation", n)
    rhs_dilation = _ints(attrs, "rhs_dilation", n)
    padding = (np.array(ir.DenseIntElementsAttr(attrs["padding"]), dtype=np.int64).reshape(-1, 2)
               if "padding" in attrs else np.zeros((n, 2), np.int64))
    reversed_ = ([bool(v) for v in ir.DenseBoolArrayAttr(attrs["window_reversal"])]
                 if "window_reversal" in attrs else [False] * n)
    window = [types[1].shape[d] for d in dims["kernel_spatial_dimensions"]]
    outputs = [types[2].shape[d] for d in dims["output_spatial_dimensions"]]
    if (any(lhs_dilation[i] != 1 or reversed_[i] for i in range(n)) or (padding < 0).any()
            or math.prod(outputs) > max_outputs or math.prod(window) < min_window):
        return None
    if is_narrow_float(element):
        lhs, rhs = (Num(v).to("f32").value for v in (lhs, rhs))
    f32 = element if integer else ir.RankedTensorType(lhs.type).element_type
    bdim, fdim = dims["input_batch_dimension"], dims["input_feature_dimension"]
    sdims = list(dims["input_spatial_dimensions"])
    kin = dims["kernel_input_feature_dimension"]
    kspatial = list(dims["kernel_spatial_dimensions"])
    # the input and kernel read in their own layouts (a transposed copy of the input, written
    # by both threads at once, is slow: docs/iree_gaps.md#shlo-few-output-convolutions)
    x = lhs
    if padding.any():
        low, high = [0] * (n + 2), [0] * (n + 2)
        for i, d in enumerate(sdims):
            low[d], high[d] = int(padding[i, 0]), int(padding[i, 1])
        zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get(
            [], ir.RankedTensorType(x.type).element_type))
        x = stablehlo.pad(x, zero, edge_padding_low=low, edge_padding_high=high,
                          interior_padding=[0] * (n + 2))
    shape = list(ir.RankedTensorType(x.type).shape)
    batch = shape[bdim]
    out_features = types[1].shape[dims["kernel_output_feature_dimension"]]
    precision = ({"precision_config": [enum_name(a) for a in
                                       ir.ArrayAttr(attrs["precision_config"])]}
                 if "precision_config" in attrs else {})
    contract = dict(lhs_contracting_dimensions=[fdim, *sdims],
                    rhs_contracting_dimensions=[kin, *kspatial], **precision)
    patches = []
    for position in itertools.product(*(range(s) for s in outputs)):
        first, last, step = [0] * (n + 2), list(shape), [1] * (n + 2)
        for i, d in enumerate(sdims):
            first[d] = position[i] * strides[i]
            last[d] = first[d] + (window[i] - 1) * rhs_dilation[i] + 1
            step[d] = rhs_dilation[i]
        patches.append(stablehlo.slice(x, start_indices=first, limit_indices=last,
                                       strides=step))
    if fenced:
        patches = fence(patches)
    if batch < stack_below and len(patches) > 1:
        # all positions' windows side by side along the batch: one matmul
        stacked = stablehlo.concatenate(patches, dimension=bdim)
        result = stablehlo.dot_general(stacked, rhs, result_type=ir.RankedTensorType.get(
            [len(patches) * batch, out_features], f32), **contract)
    else:
        row = ir.RankedTensorType.get([1, batch, out_features], f32)
        rows = [stablehlo.reshape(stablehlo.dot_general(
            patch, rhs, result_type=ir.RankedTensorType.get([batch, out_features], f32),
            **contract), result_type=row) for patch in patches]
        result = rows[0] if len(rows) == 1 else stablehlo.concatenate(rows, dimension=0)
    result = stablehlo.reshape(result, result_type=ir.RankedTensorType.get(
        [*outputs, batch, out_features], f32))
    order = {d: i for i, d in enumerate(dims["output_spatial_dimensions"])}
    order[dims["output_batch_dimension"]] = n
    order[dims["output_feature_dimension"]] = n + 1
    result = _transpose(result, [order[d] for d in range(n + 2)])
    return [result if integer else Num(result).to(element).value]


@dataclasses.dataclass
class FewOutputConvolutions(RulesPass):
    """Rewrite a convolution with at most MAX_OUTPUTS output positions and a window of at
    least MIN_WINDOW positions into one matmul per output position."""

    NAME = "shlo-few-output-convolutions"
    RULES = {"stablehlo.convolution": _convolution}
    stack_below: int = STACK_BELOW     # one matmul of all windows stacked below this batch

    def run(self, op: ir.Operation) -> None:
        below = self.stack_below
        apply_rules(op, {"stablehlo.convolution": lambda found: _convolution(found, below)},
                    self.NAME)
