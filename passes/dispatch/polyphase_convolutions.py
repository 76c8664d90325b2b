"""shlo-polyphase-convolutions: a convolution of an lhs-dilated input (a strided conv layer's
input gradient) as one convolution per output phase over the undilated input, interleaved.

jax's gradient of a stride-s conv layer with respect to its input convolves the output
gradient dilated by s (s - 1 zeros between elements) with the reversed kernel. IREE
computes that over the zero-interleaved input, s^2 times the work in 2-D
(docs/iree_gaps.md#shlo-polyphase-convolutions). Along a dimension of dilation d, outputs
o = p + d m (phase p) meet input element (p + t - lo) / d + m through kernel tap t only when p + t - lo is
a multiple of d, so phase p convolves the undilated input with the taps t0, t0 + d, ...
(t0 = (lo - p) mod d), its padding shifted to match. A phase with a single tap along some
dimension is one matmul per tap instead (IREE runs such a window as a slow 1-D convolution).
The phases' results are stacked behind each dilated
output dimension and merged by a reshape (output m d + p). The products with the dilation's
zeros are not computed, as XLA does not: a kernel's inf meets no zero (XLA and this pass give
inf where the spec's 0 * inf gives NaN). Rewritten: f32, static shapes, input and output laid
out [batch, spatial..., features], no groups, unit strides and rhs dilation, no window
reversal or negative padding, each dilated output dimension a multiple of its dilation.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS, enum_name
from ..lib import builders as extras
from ..lib.expr import attributes, element_of
from ..op_rules import RulesPass


def _ints(attrs: dict, name: str, n: int) -> list[int]:
    return [int(v) for v in ir.DenseI64ArrayAttr(attrs[name])] if name in attrs else [1] * n


def _padding(attrs: dict, n: int) -> list[list[int]]:
    if "padding" not in attrs:
        return [[0, 0] for _ in range(n)]
    return np.array(ir.DenseIntElementsAttr(attrs["padding"]), dtype=np.int64).reshape(
        -1, 2).tolist()


def _padding_attr(padding: list[list[int]]) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(
        np.array(padding, dtype=np.int64).reshape(-1, 2),
        type=ir.RankedTensorType.get([len(padding), 2], ir.IntegerType.get_signless(64)))


def _slice(x: ir.Value, dim: int, start: int, limit: int, step: int = 1) -> ir.Value:
    shape = ir.RankedTensorType(x.type).shape
    starts, limits, steps = [0] * len(shape), list(shape), [1] * len(shape)
    starts[dim], limits[dim], steps[dim] = start, limit, step
    return stablehlo.slice(x, start_indices=starts, limit_indices=limits, strides=steps)


def _phase(op, attrs, dims, phase: tuple[int, ...]) -> ir.Value | None:
    """The outputs p + d m of `phase` (one p per spatial dimension) from the undilated input:
    one convolution, or where a dimension has a single tap (IREE runs such windows as a
    slow 1-D convolution), one matmul per tap; None when no tap meets the phase (zeros)."""
    lhs, rhs = op.operands
    in_shape = ir.RankedTensorType(lhs.type).shape
    k_shape = ir.RankedTensorType(rhs.type).shape
    out_shape = list(ir.RankedTensorType(op.results[0].type).shape)
    n = len(phase)
    dilation = _ints(attrs, "lhs_dilation", n)
    padding = _padding(attrs, n)
    element = element_of(op.results[0])
    kernel_dims = dims["kernel_spatial_dimensions"]
    counts, starts = [], []
    for i, p in enumerate(phase):
        d, lo = dilation[i], padding[i][0]
        taps = k_shape[kernel_dims[i]]
        t0 = (lo - p) % d
        counts.append((taps - t0 + d - 1) // d)
        if counts[-1] <= 0:
            return None
        if (t0, d) != (0, 1):
            rhs = _slice(rhs, kernel_dims[i], t0, taps, d)
        starts.append((p + t0 - lo) // d)   # the input element of output 0's first tap
        out_shape[dims["output_spatial_dimensions"][i]] //= d
    # the input padded (or cropped) so that output m's tap j reads element m + j
    low = [-s for s in starts]
    high = [out_shape[dims["output_spatial_dimensions"][i]] + counts[i] - 1
            - in_shape[dims["input_spatial_dimensions"][i]] + starts[i] for i in range(n)]
    result = ir.RankedTensorType.get(out_shape, element)
    if all(c > 1 for c in counts):
        for i in range(n):
            size = ir.RankedTensorType(lhs.type).shape[dims["input_spatial_dimensions"][i]]
            if low[i] < 0:
                lhs = _slice(lhs, dims["input_spatial_dimensions"][i], -low[i], size)
                size, low[i] = size + low[i], 0
            if high[i] < 0:
                lhs = _slice(lhs, dims["input_spatial_dimensions"][i], 0, size + high[i])
                high[i] = 0
        if rhs != op.operands[1]:
            rhs = extras.fence([rhs])[0]    # (fused, the strided taps slowed the convolution)
        phase_attrs = dict(attrs)
        phase_attrs["padding"] = _padding_attr([[a, b] for a, b in zip(low, high)])
        phase_attrs["lhs_dilation"] = ir.DenseI64ArrayAttr.get([1] * n)
        return ir.Operation.create("stablehlo.convolution", results=[result],
                                   operands=[lhs, rhs], attributes=phase_attrs).result
    # matmuls: the input is [batch, spatial..., features] here (`_convolution` checks)
    zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], element_of(lhs)))
    padded = lhs if not any(low + high) else stablehlo.pad(
        lhs, zero, edge_padding_low=[0, *low, 0], edge_padding_high=[0, *high, 0],
        interior_padding=[0] * (n + 2))
    shape = ir.RankedTensorType(padded.type).shape
    i_dim, o_dim = dims["kernel_input_feature_dimension"], dims["kernel_output_feature_dimension"]
    k_rank = n + 2
    total = None
    for tap in itertools.product(*(range(c) for c in counts)):
        window = stablehlo.slice(padded, start_indices=[0, *tap, 0],
                                 limit_indices=[shape[0], *(tap[i] + out_shape[1 + i]
                                                            for i in range(n)), shape[-1]],
                                 strides=[1] * (n + 2))
        k_start = [0] * k_rank
        k_limit = list(ir.RankedTensorType(rhs.type).shape)
        for i in range(n):
            k_start[kernel_dims[i]], k_limit[kernel_dims[i]] = tap[i], tap[i] + 1
        w = stablehlo.slice(rhs, start_indices=k_start, limit_indices=k_limit,
                            strides=[1] * k_rank)
        w = stablehlo.reshape(w, result_type=ir.RankedTensorType.get(
            [k_shape[i_dim], k_shape[o_dim]] if i_dim < o_dim else [k_shape[o_dim], k_shape[i_dim]],
            element_of(rhs)))
        term = stablehlo.dot_general(
            window, w, lhs_contracting_dimensions=[n + 1],
            rhs_contracting_dimensions=[0 if i_dim < o_dim else 1], result_type=result,
            **({"precision_config": [enum_name(a) for a in ir.ArrayAttr(attrs["precision_config"])]}
               if "precision_config" in attrs else {}))
        total = term if total is None else stablehlo.add(total, term)
    return total


def _batch_spatial_features(dims: dict, n: int) -> bool:
    """Whether input and output are laid out [batch, spatial..., features] (jax's NHWC)."""
    layout = (0, tuple(range(1, n + 1)), n + 1)
    return all((dims[f"{side}_batch_dimension"], tuple(dims[f"{side}_spatial_dimensions"]),
                dims[f"{side}_feature_dimension"]) == layout for side in ("input", "output"))


def _convolution(op: ir.Operation):
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    types = [ir.RankedTensorType(v.type) for v in (*op.operands, op.results[0])]
    n = len(dims["input_spatial_dimensions"])
    dilation = _ints(attrs, "lhs_dilation", n)
    out_shape = types[2].shape
    spatial_out = dims["output_spatial_dimensions"]
    if (not all(t.has_static_shape for t in types) or all(d == 1 for d in dilation)
            or any(ir.IntegerAttr(attrs[g]).value != 1
                   for g in ("feature_group_count", "batch_group_count") if g in attrs)
            or any(s != 1 for s in _ints(attrs, "window_strides", n))
            or any(s != 1 for s in _ints(attrs, "rhs_dilation", n))
            or ("window_reversal" in attrs and any(ir.DenseBoolArrayAttr(attrs["window_reversal"])))
            or any(v < 0 for row in _padding(attrs, n) for v in row)
            or any(out_shape[spatial_out[i]] % dilation[i] for i in range(n))
            or not _batch_spatial_features(dims, n)
            or any(str(t.element_type) != "f32" for t in types)):
        return None
    phases = {}
    for phase in itertools.product(*(range(d) for d in dilation)):
        phases[phase] = _phase(op, attrs, dims, phase)
    rank = len(out_shape)
    dilated = [spatial_out[i] for i in range(n) if dilation[i] > 1]
    # each phase's result with a unit dimension after each dilated output dimension, where
    # the phases of that dimension are stacked
    expanded_shape = []
    for k in range(rank):
        i = spatial_out.index(k) if k in spatial_out else None
        expanded_shape += [out_shape[k] // dilation[i]] if i is not None else [out_shape[k]]
        if k in dilated:
            expanded_shape.append(1)
    element = element_of(op.results[0])

    def expanded(value: ir.Value | None, shape: list[int]) -> ir.Value:
        t = ir.RankedTensorType.get(shape, element)
        if value is None:
            zero = stablehlo.constant(0, result_type=ir.RankedTensorType.get([], element))
            return stablehlo.broadcast_in_dim(zero, broadcast_dimensions=[], result_type=t)
        return stablehlo.reshape(value, result_type=t)

    def axis_after(k: int) -> int:
        """The position of the unit dimension that follows output dimension k."""
        return k + sum(1 for j in dilated if j <= k)

    def build(prefix: tuple[int, ...], level: int) -> ir.Value:
        if level == n:
            return expanded(phases[prefix], expanded_shape)
        if dilation[level] == 1:
            return build(prefix + (0,), level + 1)
        axis = axis_after(spatial_out[level])
        return stablehlo.concatenate([build(prefix + (p,), level + 1)
                                      for p in range(dilation[level])], dimension=axis)

    return [stablehlo.reshape(build((), 0), result_type=types[2])]


@dataclasses.dataclass
class PolyphaseConvolutions(RulesPass):
    """Compute a convolution of an lhs-dilated input as one convolution per output phase."""

    NAME = "shlo-polyphase-convolutions"
    RULES = {"stablehlo.convolution": _convolution}
