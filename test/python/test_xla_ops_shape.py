"""XlaBuilder shape and data-movement ops (Broadcast, BroadcastInDim, Collapse, Concatenate,
Pad with negative and interior padding, Reshape in its three forms, DynamicReshape, Rev, Slice,
DynamicSlice, DynamicUpdateSlice with start clamping, Transpose, Iota, GetDimensionSize,
SetDimensionSize) on CPU and Vulkan against numpy, one module per target.
"""
import numpy as np
import pytest

from shlo import xla
from xla_suite import Case, Suite, build_error, numeric_test, rng

R = rng(7)
F32, I32 = np.float32, np.int32


def arange(*shape, dtype=F32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def pad_oracle(x, value, config):
    """XLA's Pad: interior padding first, then edge padding (negative edges remove elements)."""
    for d, (lo, hi, interior) in enumerate(config):
        n = x.shape[d]
        size = n + max(n - 1, 0) * interior
        shape = list(x.shape)
        shape[d] = size
        out = np.full(shape, value, x.dtype)
        index = [slice(None)] * x.ndim
        index[d] = slice(0, size, interior + 1)
        out[tuple(index)] = x
        x = out
        if lo < 0:
            x = np.take(x, range(-lo, x.shape[d]), axis=d)
        else:
            x = np.concatenate([np.full_like(np.take(x, [0] * lo, axis=d), value), x], axis=d)
        if hi < 0:
            x = np.take(x, range(0, x.shape[d] + hi), axis=d)
        else:
            x = np.concatenate([x, np.full_like(np.take(x, [0] * hi, axis=d), value)], axis=d)
    return x


def dynamic_slice_oracle(x, starts, sizes):
    starts = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, sizes)]
    return x[tuple(slice(s, s + k) for s, k in zip(starts, sizes))]


def dynamic_update_oracle(x, u, starts):
    starts = [int(np.clip(s, 0, n - k)) for s, n, k in zip(starts, x.shape, u.shape)]
    out = x.copy()
    out[tuple(slice(s, s + k) for s, k in zip(starts, u.shape))] = u
    return out


X234 = arange(2, 3, 4)
X34 = R.standard_normal((3, 4)).astype(F32)
V = arange(4, 2, 3) + 10

CASES = [
    Case("broadcast", (arange(2, 3),), lambda b, x: xla.Broadcast(x, [4]),
         lambda x: np.broadcast_to(x, (4, 2, 3))),
    Case("broadcast_scalar", (F32(2.0),), lambda b, x: xla.Broadcast(x, [2, 3]),
         lambda x: np.full((2, 3), x, F32)),
    Case("broadcast_in_dim", (arange(3, 1),), lambda b, x: xla.BroadcastInDim(x, [2, 3, 4], [1, 2]),
         lambda x: np.broadcast_to(x[None], (2, 3, 4))),
    Case("broadcast_in_dim_transposing", (arange(4, 3),),
         lambda b, x: xla.BroadcastInDim(x, out_dim_size=[3, 5, 4], broadcast_dimensions=[2, 0]),
         lambda x: np.broadcast_to(x.T[:, None, :], (3, 5, 4))),
    Case("collapse_01", (V,), lambda b, x: xla.Collapse(x, [0, 1]), lambda x: x.reshape(8, 3)),
    Case("collapse_12", (V,), lambda b, x: xla.Collapse(x, [1, 2]), lambda x: x.reshape(4, 6)),
    Case("collapse_012", (V,), lambda b, x: xla.Collapse(x, [0, 1, 2]), lambda x: x.reshape(24)),
    Case("concatenate_dim0", (arange(3, 2), arange(1, 2) + 50),
         lambda b, x, y: xla.Concatenate([x, y], 0), lambda x, y: np.concatenate([x, y], 0)),
    Case("concatenate_dim1_three", (arange(2, 1), arange(2, 3) + 10, arange(2, 2, dtype=I32)
                                    .astype(F32) - 7),
         lambda b, x, y, z: xla.Concatenate([x, y, z], dimension=1),
         lambda x, y, z: np.concatenate([x, y, z], 1)),
    Case("concat_in_dim_alias", (arange(2, 2), arange(2, 3)),
         lambda b, x, y: xla.ConcatInDim(b, [x, y], 1), lambda x, y: np.concatenate([x, y], 1)),
    Case("pad_edges", (arange(2, 3), F32(-1)),
         lambda b, x, v: xla.Pad(x, v, [(1, 2, 0), (0, 1, 0)]),
         lambda x, v: pad_oracle(x, v, [(1, 2, 0), (0, 1, 0)])),
    Case("pad_interior", (arange(2, 3), F32(-1)),
         lambda b, x, v: xla.Pad(x, v, [(0, 0, 1), (1, 0, 2)]),
         lambda x, v: pad_oracle(x, v, [(0, 0, 1), (1, 0, 2)])),
    Case("pad_negative_edges_after_interior", (arange(3, 4), F32(9)),
         lambda b, x, v: xla.Pad(x, v, [(-1, 1, 1), (2, -3, 1)]),
         lambda x, v: pad_oracle(x, v, [(-1, 1, 1), (2, -3, 1)])),
    Case("pad_s32", (arange(5, dtype=I32), I32(0)),
         lambda b, x, v: xla.Pad(x, v, padding_config=[(-2, 3, 2)]),
         lambda x, v: pad_oracle(x, v, [(-2, 3, 2)])),
    Case("reshape", (X234,), lambda b, x: xla.Reshape(x, [6, 4]), lambda x: x.reshape(6, 4)),
    Case("reshape_to_scalar", (np.full((1, 1), 5, F32),), lambda b, x: xla.Reshape(x, []),
         lambda x: x.reshape(())),
    Case("reshape_explicit_shape", (X234,),
         lambda b, x: xla.Reshape(xla.Shape.array_shape(F32, [4, 3, 2]), x),
         lambda x: x.reshape(4, 3, 2)),
    # the older seeds' Reshape(operand, dimensions, new_sizes): collapse in `dimensions` order
    Case("reshape_dimensions_order", (V,), lambda b, x: xla.Reshape(x, [1, 2, 0], [2, 6, 2]),
         lambda x: np.transpose(x, [1, 2, 0]).reshape(2, 6, 2)),
    Case("dynamic_reshape_static_sizes", (arange(2, 6), I32(3), I32(4)),
         lambda b, x, n, m: xla.DynamicReshape(x, [n, m], [3, 4], [False, False]),
         lambda x, n, m: x.reshape(3, 4)),
    Case("rev", (X234,), lambda b, x: xla.Rev(x, [0, 2]), lambda x: x[::-1, :, ::-1]),
    Case("transpose", (X234,), lambda b, x: xla.Transpose(x, [2, 0, 1]),
         lambda x: np.transpose(x, [2, 0, 1])),
    Case("slice_strided", (arange(5, 7),), lambda b, x: xla.Slice(x, [1, 0], [5, 7], [2, 3]),
         lambda x: x[1:5:2, 0:7:3]),
    Case("slice_in_dim", (arange(5, 7),), lambda b, x: xla.SliceInDim(x, 1, 6, 2, 1),
         lambda x: x[:, 1:6:2]),
    Case("slice_default_strides", (arange(5, 7),), lambda b, x: xla.Slice(x, [1, 2], [4, 3]),
         lambda x: x[1:4, 2:3]),
    Case("dynamic_slice", (arange(4, 5), I32(1), I32(2)),
         lambda b, x, i, j: xla.DynamicSlice(x, [i, j], [2, 3]),
         lambda x, i, j: dynamic_slice_oracle(x, [i, j], [2, 3])),
    Case("dynamic_slice_clamps_start", (arange(4, 5), I32(7), I32(-3)),
         lambda b, x, i, j: xla.DynamicSlice(x, [i, j], [2, 3]),
         lambda x, i, j: dynamic_slice_oracle(x, [i, j], [2, 3])),
    Case("dynamic_update_slice", (arange(4, 5), -arange(2, 2) - 1, I32(1), I32(3)),
         lambda b, x, u, i, j: xla.DynamicUpdateSlice(x, u, [i, j]),
         lambda x, u, i, j: dynamic_update_oracle(x, u, [i, j])),
    Case("dynamic_update_slice_clamps_start", (arange(4, 5), -arange(2, 2) - 1, I32(5), I32(9)),
         lambda b, x, u, i, j: xla.DynamicUpdateSlice(x, u, [i, j]),
         lambda x, u, i, j: dynamic_update_oracle(x, u, [i, j])),
    Case("iota_s32_dim0", (), lambda b: xla.Iota(b, xla.Shape.array_shape("S32", [4, 8]), 0),
         lambda: np.broadcast_to(np.arange(4, dtype=I32)[:, None], (4, 8))),
    Case("iota_f32_dim1", (), lambda b: xla.Iota(b, xla.Shape.array_shape(F32, [3, 5]), 1),
         lambda: np.broadcast_to(np.arange(5, dtype=F32), (3, 5))),
    Case("iota_plus_input", (X34,),
         lambda b, x: xla.Add(x, xla.Iota(b, xla.Shape.array_shape(F32, [3, 4]), 1)),
         lambda x: x + np.arange(4, dtype=F32)),
    Case("get_dimension_size", (X234,), lambda b, x: xla.GetDimensionSize(x, 2),
         lambda x: np.array(4, I32)),
    # the seed's SetDimensionSize example: later reductions ignore the padded elements
    Case("set_dimension_size_reduce", (np.arange(1, 11, dtype=F32), I32(5)),
         lambda b, x, n: xla.Reduce(xla.SetDimensionSize(x, n, 0), xla.Constant(b, F32(0)),
                                    lambda s, t: xla.Add(s, t), [0]),
         lambda x, n: np.array(x[:n].sum(), F32)),
]

SUITE = Suite("shape", CASES)
test_shape_ops = numeric_test(SUITE)


BAD = {
    "collapse_not_consecutive": lambda x: xla.Collapse(x, [0, 2]),
    "concatenate_mismatched": lambda x: xla.Concatenate([x, xla.Transpose(x, [0, 2, 1])], 0),
    "reshape_wrong_count": lambda x: xla.Reshape(x, [5, 5]),
    "slice_limit_past_end": lambda x: xla.Slice(x, [0, 0, 0], [2, 3, 5], [1, 1, 1]),
    "transpose_not_permutation": lambda x: xla.Transpose(x, [0, 0, 1]),
    "rev_dimension_out_of_range": lambda x: xla.Rev(x, [3]),
    "broadcast_in_dim_bad_size": lambda x: xla.BroadcastInDim(x, [2, 5, 4], [0, 1, 2]),
    "pad_config_rank": lambda x: xla.Pad(x, xla.Reshape(xla.Slice(x, [0, 0, 0], [1, 1, 1]), []),
                                         [(0, 0, 0)]),
    "pad_negative_interior": lambda x: xla.Pad(
        x, xla.Reshape(xla.Slice(x, [0, 0, 0], [1, 1, 1]), []), [(0, 0, -1)] * 3),
}


@pytest.mark.parametrize("name", BAD)
@pytest.mark.every_case
def test_shape_errors_are_shlo_errors(name):
    build_error([(F32, [2, 3, 4])], lambda b, x: BAD[name](x))
