"""shlo-few-output-convolutions: a convolution with few output positions and a large window
(a training step's weight gradient: the image convolved with the output gradient) as one
matmul per output position: that position's window of the input contracted with the kernel
over the window and the input features.

jax writes the weight gradient of a conv layer as a convolution whose batch is the input's
channels, whose features are the examples, whose window is the whole output gradient (16x16 or
32x32, dilated by the forward stride) and whose output is the kernel's 3x3. IREE's direct
convolution runs that layout far below the machine's speed; as matmuls (each reading its
window of the input) it runs many times faster
(docs/iree_gaps.md#shlo-few-output-convolutions). One matmul of all positions' windows
stacked (9 copies of the input) is slower, except where the batch (the
matmuls' rows: a first layer's 3 input channels) is below STACK_BELOW: 9 matmuls of 3 rows
each pad to a data tile of 16 rows and encode their windows apart, one of 27 rows
does not (`stack-below=0` never stacks).
The padded input is relaid once (`_windows`) so that the windows of each position along the
first spatial dimension are one contiguous slice, which IREE reads at a buffer offset: one
executable serves them all, where a slice of the input in its own layout has its offsets
compiled into the executable that reads it, one per position (cnn_train: 150 -> 131
executables; docs/performance.md, "Cold compiles: one relayout per weight gradient").
Rewritten: static shapes, no groups, no lhs dilation or window reversal, no negative padding,
at most MAX_OUTPUTS output positions and at least MIN_WINDOW window positions. Padding becomes
a stablehlo.pad, strides the windows' starts, rhs dilation the phases of the relayout. bf16
and f16 compute in f32 and round once (as shlo-accumulate-in-f32 does for one convolution).
"""
from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from ..lib.builders import fusion_barriers, in_control_flow
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


def _windows(x: ir.Value, bdim: int, fdim: int, sdims: list[int], padding: np.ndarray,
             strides: list[int], dilation: list[int], window: list[int],
             outputs: list[int]) -> list[ir.Value]:
    """Each output position's window of `x` (row-major over the positions) as
    [window..., features, batch], cut from one relayout of the padded input as [spatial...,
    features, batch], each spatial dimension as (index modulo its dilation, index // dilation):
    each first-dimension position's windows are then a contiguous slice, behind a fusion
    barrier (outside control flow) so that IREE reads it at a buffer offset, and its windows
    are slices of that. The pad comes first: a relayout written into the padded buffer had
    each slice copied out of it."""
    n, element = len(sdims), ir.RankedTensorType(x.type).element_type
    shape = [ir.RankedTensorType(x.type).shape[d] for d in sdims]
    sizes = [-(-(shape[i] + int(padding[i].sum())) // dilation[i]) for i in range(n)]
    low, high = [0] * (n + 2), [0] * (n + 2)
    for i, d in enumerate(sdims):   # whole phases too
        low[d] = int(padding[i, 0])
        high[d] = sizes[i] * dilation[i] - shape[i] - low[d]
    if any(low) or any(high):
        zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], element))
        x = stablehlo.pad(x, zero, edge_padding_low=low, edge_padding_high=high,
                          interior_padding=[0] * (n + 2))
    # each spatial dimension as (index // dilation, index modulo dilation), in place
    split: list[int] = []
    at: dict[int, int] = {}
    for d, size in enumerate(ir.RankedTensorType(x.type).shape):
        at[d] = len(split)
        split += [sizes[sdims.index(d)], dilation[sdims.index(d)]] if d in sdims else [size]
    x = stablehlo.reshape(x, result_type=ir.RankedTensorType.get(split, element))
    x = _transpose(x, [k for d in sdims for k in (at[d] + 1, at[d])] + [at[fdim], at[bdim]])
    full = list(ir.RankedTensorType(x.type).shape)

    def cut(value: ir.Value, starts: dict[int, int]) -> ir.Value:
        """`value` sliced at the windows of spatial dimensions i from starts[i]."""
        begin, end = [0] * len(full), list(ir.RankedTensorType(value.type).shape)
        for i, start in starts.items():
            begin[2 * i], begin[2 * i + 1] = start % dilation[i], start // dilation[i]
            end[2 * i], end[2 * i + 1] = begin[2 * i] + 1, begin[2 * i + 1] + window[i]
        return stablehlo.slice(value, start_indices=begin, limit_indices=end,
                               strides=[1] * len(full))
    rows = [cut(x, {0: p * strides[0]}) for p in range(outputs[0])]
    if not in_control_flow(ir.InsertionPoint.current.block.owner):
        rows = fusion_barriers(rows)
    flat = ir.RankedTensorType.get([*window, *full[-2:]], element)
    return [stablehlo.reshape(cut(rows[position[0]], {
        i: p * strides[i] for i, p in enumerate(position) if i}), result_type=flat)
        for position in itertools.product(*(range(s) for s in outputs))]


def _convolution(op: ir.Operation, stack_below: int = STACK_BELOW):
    return window_matmuls(op, stack_below, MAX_OUTPUTS, MIN_WINDOW)


def window_matmuls(op: ir.Operation, stack_below: int, max_outputs: int, min_window: int,
                   integers: bool = False):
    """The convolution as one dot_general per output position over its window (`_windows`),
    or None where it declines; `integers`: integer convolutions too (their product in the
    result's type)."""
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
    bdim, fdim = dims["input_batch_dimension"], dims["input_feature_dimension"]
    sdims = list(dims["input_spatial_dimensions"])
    batch = types[0].shape[bdim]
    out_features = types[1].shape[dims["kernel_output_feature_dimension"]]
    # relaid in its own type (half the bytes of f32 for bf16 and f16), each window widened
    windows = _windows(lhs, bdim, fdim, sdims, padding, strides, rhs_dilation, window, outputs)
    if is_narrow_float(element):
        windows = [Num(w).to("f32").value for w in windows]
        rhs = Num(rhs).to("f32").value
    f32 = element if integer else ir.RankedTensorType(rhs.type).element_type
    kernel = [*dims["kernel_spatial_dimensions"], dims["kernel_input_feature_dimension"]]
    precision = ({"precision_config": [enum_name(a) for a in
                                       ir.ArrayAttr(attrs["precision_config"])]}
                 if "precision_config" in attrs else {})
    if batch < stack_below and len(windows) > 1:
        # all positions' windows side by side: one matmul of [positions, batch] rows
        one = ir.RankedTensorType.get([1, *ir.RankedTensorType(windows[0].type).shape],
                                      ir.RankedTensorType(windows[0].type).element_type)
        stacked = stablehlo.concatenate([stablehlo.reshape(w, result_type=one)
                                         for w in windows], dimension=0)
        result = stablehlo.dot_general(stacked, rhs, result_type=ir.RankedTensorType.get(
            [len(windows), batch, out_features], f32),
            lhs_contracting_dimensions=list(range(1, n + 2)),
            rhs_contracting_dimensions=kernel, **precision)
    else:
        row = ir.RankedTensorType.get([1, batch, out_features], f32)
        rows = [stablehlo.reshape(stablehlo.dot_general(
            w, rhs, result_type=ir.RankedTensorType.get([batch, out_features], f32),
            lhs_contracting_dimensions=list(range(n + 1)), rhs_contracting_dimensions=kernel,
            **precision), result_type=row) for w in windows]
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
