"""Every worked example of the seeds (../shared/seeds/, XLA's Operation Semantics in four
versions; 000_7bc2d0983cd7f91d.txt is the newest and wins) built with shlo.xla and run on CPU
and Vulkan.

Each case's expected result is computed by an independent numpy oracle; the literal result
printed in the seed (`seed=`) is checked against that oracle separately, so a wrong seed
example is caught and documented (`seed_erratum=`, also listed in docs/xla_ops.md) instead of
being tested. Examples given only as figures have no literal and are tested against the oracle.
"""
import numpy as np
import pytest

from shlo import xla
from xla_suite import Case, Suite, binary_computation, numeric_test, seed_check

F32, I32, F16 = np.float32, np.int32, np.float16
V = (np.arange(4)[:, None, None] * 10 + np.array([[10, 11, 12], [15, 16, 17]])).astype(F32)
B43 = np.arange(12, dtype=F32).reshape(4, 3)
A5 = np.arange(5, dtype=F32)
MAX = binary_computation("max", xla.Max)


def add(p, q):
    return xla.Add(p, q)


def reduce_sum(dims):
    return lambda b, x: xla.Reduce(x, xla.Constant(b, x.shape().element_type().type(0)), add, dims)


def updated(x, u, starts):
    out = x.copy()
    out[tuple(slice(s, s + n) for s, n in zip(starts, u.shape))] = u
    return out


def reduce_window_oracle_1d(x, init, fn, window, stride, low, high):
    padded = np.concatenate([np.full(low, init, x.dtype), x, np.full(high, init, x.dtype)])
    return np.array([fn(padded[i:i + window]) for i in range(0, len(padded) - window + 1, stride)],
                    x.dtype)


def argmax_reduce(b, v, k):
    def f(m, am, value, index):          # the newest seed's f: `if value >= max`
        take = xla.Ge(value, m)
        return xla.Tuple([xla.Select(take, value, m), xla.Select(take, index, am)])
    r = xla.Reduce([v, k], [xla.Constant(b, F32(-np.inf)), xla.Constant(b, I32(-1))], f, [0])
    return [xla.GetTupleElement(r, 0), xla.GetTupleElement(r, 1)]


def scan_example(b, x, i):
    """m = n = k = 1, N = 3: f(x, c) -> (y, c') with y = c' = x + c."""
    def f(e, c):
        s = xla.Add(e, c)
        return xla.Tuple([s, s])
    r = xla.Scan([x], [i], f, 0, False, False)
    return [xla.GetTupleElement(r, 0), xla.GetTupleElement(r, 1)]


def set_dimension_size_example(b, v, five, six):
    zero, one = xla.Constant(b, F32(0)), xla.Constant(b, F32(1))
    v5, v6 = xla.SetDimensionSize(v, five, 0), xla.SetDimensionSize(v, six, 0)
    return [xla.Reduce(v5, zero, add, [0]), xla.Reduce(v5, one, lambda p, q: xla.Mul(p, q), [0]),
            xla.Reduce(v6, zero, add, [0])]


GATHER_ND_INDICES = np.random.default_rng(1).integers(0, 16, (4, 5, 1)).astype(I32)
SLICE_STARTS = np.array([[0, 0], [8, 5], [3, 2], [15, 10], [7, 1]], I32)

CASES = [
    # Clamp. The oldest seed (003) writes Clamp(operand, min, max) with clamp(x, a, b) =
    # max(min(x, a), b): both wrong; the newest seed's Clamp(min, operand, max) =
    # min(max(min, operand), max) is XLA's.
    Case("clamp", (I32(0), np.array([-1, 5, 9], I32), I32(6)),
         lambda b, lo, x, hi: xla.Clamp(lo, x, hi), lambda lo, x, hi: np.minimum(
             np.maximum(lo, x), hi), seed=[[0, 5, 6]]),
    # Collapse: {0,1,2} -> f32[24]
    Case("collapse_012", (V,), lambda b, v: xla.Collapse(v, [0, 1, 2]), lambda v: v.reshape(24),
         seed=[[10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27, 30, 31, 32, 35, 36, 37,
                40, 41, 42, 45, 46, 47]]),
    # Collapse {0,1} of f32[4x2x3] merges 4 and 2: f32[8x3]. The seeds (newest included) print
    # f32[4x6] here and f32[8x3] for {1,2}: the two results are swapped.
    Case("collapse_01", (V,), lambda b, v: xla.Collapse(v, [0, 1]), lambda v: v.reshape(8, 3),
         seed=[V.reshape(4, 6)], seed_erratum="results of {0,1} and {1,2} swapped"),
    Case("collapse_12", (V,), lambda b, v: xla.Collapse(v, [1, 2]), lambda v: v.reshape(4, 6),
         seed=[V.reshape(8, 3)], seed_erratum="results of {0,1} and {1,2} swapped"),
    Case("concatenate_1d", (np.array([2, 3], F32), np.array([4, 5], F32), np.array([6, 7], F32)),
         lambda b, x, y, z: xla.Concatenate([x, y, z], 0), lambda x, y, z: np.concatenate(
             [x, y, z]), seed=[[2, 3, 4, 5, 6, 7]]),
    Case("concatenate_2d", (np.array([[1, 2], [3, 4], [5, 6]], F32), np.array([[7, 8]], F32)),
         lambda b, x, y: xla.Concatenate([x, y], 0), lambda x, y: np.concatenate([x, y]),
         seed=[[[1, 2], [3, 4], [5, 6], [7, 8]]]),
    Case("convert_element_type", (np.array([0, 1, 2], I32),),
         lambda b, a: xla.ConvertElementType(a, "F32"), lambda a: a.astype(F32),
         seed=[[0.0, 1.0, 2.0]]),
    Case("dot_general_contracting", (np.array([[1, 2, 3], [4, 5, 6]], F32),
                                     np.array([[1, 1, 1], [2, 2, 2]], F32)),
         lambda b, x, y: xla.DotGeneral(x, y, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[1])),
         lambda x, y: x @ y.T, seed=[[[6, 12], [15, 30]]]),
    Case("dot_general_batch", (np.arange(1, 9, dtype=F32).reshape(2, 2, 2),
                               np.tile(np.eye(2, dtype=F32), (2, 1, 1))),
         lambda b, x, y: xla.DotGeneral(x, y, xla.DotDimensionNumbers(
             lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[1],
             lhs_batch_dimensions=[0], rhs_batch_dimensions=[0])),
         lambda x, y: np.matmul(x, y), seed=[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]),
    Case("dynamic_slice_1d", (A5, I32(2)), lambda b, a, s: xla.DynamicSlice(a, [s], [2]),
         lambda a, s: a[s:s + 2], seed=[[2.0, 3.0]]),
    Case("dynamic_slice_2d", (B43, I32(2), I32(1)),
         lambda b, x, i, j: xla.DynamicSlice(x, [i, j], [2, 2]),
         lambda x, i, j: x[i:i + 2, j:j + 2], seed=[[[7, 8], [10, 11]]]),
    Case("dynamic_update_slice_1d", (A5, np.array([5, 6], F32), I32(2)),
         lambda b, a, u, s: xla.DynamicUpdateSlice(a, u, [s]),
         lambda a, u, s: np.concatenate([a[:s], u, a[s + 2:]]), seed=[[0, 1, 5, 6, 4]]),
    Case("dynamic_update_slice_2d", (B43, np.arange(12, 18, dtype=F32).reshape(3, 2), I32(1),
                                     I32(1)),
         lambda b, x, u, i, j: xla.DynamicUpdateSlice(x, u, [i, j]),
         lambda x, u, i, j: updated(x, u, (i, j)),
         seed=[[[0, 1, 2], [3, 12, 13], [6, 14, 15], [9, 16, 17]]]),
    # Gather: 5 slices of [8,6] from a [16,11] array (indices out of range are clamped) and the
    # tf.gather_nd example (whole rows picked by a [4,5,1] index array)
    Case("gather_five_slices", (np.arange(176, dtype=F32).reshape(16, 11), SLICE_STARTS),
         lambda b, x, i: xla.Gather(x, i, xla.GatherDimensionNumbers(
             offset_dims=[1, 2], collapsed_slice_dims=[], start_index_map=[0, 1],
             index_vector_dim=1), [8, 6]),
         lambda x, i: np.stack([x[r:r + 8, c:c + 6] for r, c in
                                np.minimum(i, [16 - 8, 11 - 6])])),
    Case("gather_nd", (np.arange(176, dtype=F32).reshape(16, 11), GATHER_ND_INDICES),
         lambda b, x, i: xla.Gather(x, i, xla.GatherDimensionNumbers(
             offset_dims=[2], collapsed_slice_dims=[0], start_index_map=[0],
             index_vector_dim=2), [1, 11]),
         lambda x, i: x[i[..., 0]]),
    Case("get_tuple_element", (np.arange(10, dtype=F32), I32(5)),
         lambda b, v, s: xla.GetTupleElement(xla.Tuple([v, s]), 1), lambda v, s: s, seed=[5]),
    Case("iota_dim0", (), lambda b: xla.Iota(b, xla.Shape.array_shape("S32", [4, 8]), 0),
         lambda: np.repeat(np.arange(4, dtype=I32)[:, None], 8, 1),
         seed=[[[i] * 8 for i in range(4)]]),
    Case("iota_dim1", (), lambda b: xla.Iota(b, xla.Shape.array_shape("S32", [4, 8]), 1),
         lambda: np.repeat(np.arange(8, dtype=I32)[None], 4, 0), seed=[[list(range(8))] * 4]),
    # Reduce: the 3-D example (1..6 repeated 4 times along dimension 0)
    Case("reduce_1d", (np.array([10, 11, 12, 13], F32),), reduce_sum([0]),
         lambda x: np.asarray(x.sum(), F32)),
    Case("reduce_3d_dim0", (np.tile(np.arange(1, 7, dtype=F32).reshape(2, 3), (4, 1, 1)),),
         reduce_sum([0]), lambda x: x.sum(0), seed=[[[4, 8, 12], [16, 20, 24]]]),
    Case("reduce_3d_dim2", (np.tile(np.arange(1, 7, dtype=F32).reshape(2, 3), (4, 1, 1)),),
         reduce_sum([2]), lambda x: x.sum(2), seed=[[[6, 15]] * 4]),
    Case("reduce_3d_dims01", (np.tile(np.arange(1, 7, dtype=F32).reshape(2, 3), (4, 1, 1)),),
         reduce_sum([0, 1]), lambda x: x.sum((0, 1)), seed=[[20, 28, 36]]),
    Case("reduce_3d_all", (np.tile(np.arange(1, 7, dtype=F32).reshape(2, 3), (4, 1, 1)),),
         reduce_sum([0, 1, 2]), lambda x: np.asarray(x.sum(), F32), seed=[84]),
    # Variadic Reduce max/argmax. Seed 001 writes `if value >= argmax` (compares a value with
    # an index); the newest seed's `if value >= max` is meant and tested.
    Case("reduce_variadic_argmax", (np.array([3, 9, -2, 9.5, 4], F32), np.arange(5, dtype=I32)),
         argmax_reduce, lambda v, k: [v.max(), np.asarray(k[v.argmax()], I32)]),
    # ReduceWindow example 1: max over 2x3 windows, stride 2x3, VALID, init = lowest f32.
    # (Seed 001's call passes the computation before init_value; the newest seed's order, with
    # init_values before the computation, is XLA's.)
    Case("reduce_window_max_2x3", (np.random.default_rng(0).standard_normal((4, 6)).astype(F32),),
         lambda b, x: xla.ReduceWindow(x, xla.ConstantLiteral(b, np.finfo(F32).min), MAX, [2, 3],
                                       [2, 3], xla.Padding.VALID),
         lambda x: x.reshape(2, 2, 2, 3).max(axis=(1, 3))),
    Case("reduce_window_min_valid", (np.array([10000, 1000, 100, 10, 1], F32),),
         lambda b, x: xla.ReduceWindow(x, xla.Constant(b, np.finfo(F32).max),
                                       lambda p, q: xla.Min(p, q), [3], [2], xla.Padding.VALID),
         lambda x: reduce_window_oracle_1d(x, np.finfo(F32).max, np.min, 3, 2, 0, 0),
         seed=[[100, 1]]),
    Case("reduce_window_min_same", (np.array([10000, 1000, 100, 10, 1], F32),),
         lambda b, x: xla.ReduceWindow(x, xla.Constant(b, np.finfo(F32).max),
                                       lambda p, q: xla.Min(p, q), [3], [2], xla.Padding.SAME),
         lambda x: reduce_window_oracle_1d(x, np.finfo(F32).max, np.min, 3, 2, 1, 1),
         seed=[[1000, 10, 1]]),
    # the StableHLO example 2: base dilation 2, padding (2,1), window [2,1] dilated [3,1],
    # stride [4,1], add, init 0 (XLA's ReduceWindowWithGeneralPadding carries the dilations)
    Case("reduce_window_stablehlo_example", (np.array([[1, 2], [3, 4], [5, 6]], I32), I32(0)),
         lambda b, x, z: xla.ReduceWindowWithGeneralPadding(x, z, add, [2, 1], [4, 1], [2, 1],
                                                            [3, 1], [(2, 1), (0, 0)]),
         lambda x, z: np.stack([np.zeros(2, I32), x[1]]), seed=[[[0, 0], [3, 4]]]),
    Case("reshape_24", (V,), lambda b, v: xla.Reshape(v, [24]), lambda v: v.reshape(24),
         seed=[V.ravel()]),
    Case("reshape_8x3", (V,), lambda b, v: xla.Reshape(v, [8, 3]), lambda v: v.reshape(8, 3),
         seed=[[[10, 11, 12], [15, 16, 17], [20, 21, 22], [25, 26, 27], [30, 31, 32],
                [35, 36, 37], [40, 41, 42], [45, 46, 47]]]),
    Case("reshape_1x1_to_scalar", (np.array([[5]], F32),), lambda b, x: xla.Reshape(x, []),
         lambda x: x.reshape(()), seed=[5]),
    Case("reshape_scalar_to_1x1", (F32(5),), lambda b, x: xla.Reshape(x, [1, 1]),
         lambda x: x.reshape(1, 1), seed=[[[5]]]),
    # the older seeds' dimension-order form (seed 001 prints `then v012_24 ==` for v021_24)
    Case("reshape_order_120_24", (V,), lambda b, v: xla.Reshape(v, [1, 2, 0], [24]),
         lambda v: v.transpose(1, 2, 0).reshape(24),
         seed=[[10, 20, 30, 40, 11, 21, 31, 41, 12, 22, 32, 42, 15, 25, 35, 45, 16, 26, 36, 46,
                17, 27, 37, 47]]),
    Case("reshape_order_120_8x3", (V,), lambda b, v: xla.Reshape(v, [1, 2, 0], [8, 3]),
         lambda v: v.transpose(1, 2, 0).reshape(8, 3),
         seed=[[[10, 20, 30], [40, 11, 21], [31, 41, 12], [22, 32, 42], [15, 25, 35],
                [45, 16, 26], [36, 46, 17], [27, 37, 47]]]),
    Case("reshape_order_120_2x6x2", (V,), lambda b, v: xla.Reshape(v, [1, 2, 0], [2, 6, 2]),
         lambda v: v.transpose(1, 2, 0).reshape(2, 6, 2),
         seed=[[[[10, 20], [30, 40], [11, 21], [31, 41], [12, 22], [32, 42]],
                [[15, 25], [35, 45], [16, 26], [36, 46], [17, 27], [37, 47]]]]),
    # Transpose "is the same as Reshape(operand, permutation, Permute(permutation, dims))"
    Case("transpose_is_ordered_reshape", (V,),
         lambda b, v: [xla.Transpose(v, [2, 0, 1]), xla.Reshape(v, [2, 0, 1], [3, 4, 2])],
         lambda v: [v.transpose(2, 0, 1)] * 2),
    Case("select_array_pred", (np.array([True, False, False, True]), np.array([1, 2, 3, 4], I32),
                               np.array([100, 200, 300, 400], I32)),
         lambda b, p, x, y: xla.Select(p, x, y), np.where, seed=[[1, 200, 300, 4]]),
    Case("select_scalar_pred", (np.array(True), np.array([1, 2, 3, 4], I32),
                                np.array([100, 200, 300, 400], I32)),
         lambda b, p, x, y: xla.Select(p, x, y), lambda p, x, y: np.where(p, x, y),
         seed=[[1, 2, 3, 4]]),
    Case("slice_1d", (A5,), lambda b, a: xla.Slice(a, [2], [4], [1]), lambda a: a[2:4],
         seed=[[2.0, 3.0]]),
    Case("slice_2d", (B43,), lambda b, x: xla.Slice(x, [2, 1], [4, 3], [1, 1]),
         lambda x: x[2:4, 1:3], seed=[[[7, 8], [10, 11]]]),
    # Sort with three operands compared on operand 0 (seed 001: keys [3,1], values [42,50])
    Case("sort_three_operands", (np.array([3, 1], I32), np.array([42, 50], I32),
                                 np.array([-3.0, 1.1], F32)),
         lambda b, k, v, w: [xla.GetTupleElement(xla.Sort(
             [k, v, w], lambda k1, k2, v1, v2, w1, w2: xla.Lt(k1, k2), 0), i) for i in range(3)],
         lambda k, v, w: [np.sort(k), v[np.argsort(k)], w[np.argsort(k)]],
         seed=[[1, 3], [50, 42], [1.1, -3.0]]),
    Case("scan_example", (np.array([1.5, -2.0, 4.0], F32), F32(10)), scan_example,
         lambda x, i: [np.cumsum(x) + i, np.asarray(x.sum() + i, F32)]),
    # SetDimensionSize: reductions ignore the elements past the dynamic size
    Case("set_dimension_size", (np.arange(1, 11, dtype=F32), I32(5), I32(6)),
         set_dimension_size_example, lambda v, five, six: [
             np.asarray(v[:5].sum(), F32), np.asarray(v[:5].prod(), F32),
             np.asarray(v[:6].sum(), F32)], seed=[15, 120, 21]),
    # Broadcast of the f32 scalar 2.0 with broadcast_sizes {2, 3}
    Case("broadcast_scalar", (F32(2.0),), lambda b, x: xla.Broadcast(x, [2, 3]),
         lambda x: np.full((2, 3), x, F32), seed=[[[2.0] * 3] * 2]),
    # BitcastConvertType of different widths: f32[10] -> f16[10,2], f32[] -> f16[2], and back
    Case("bitcast_convert_widths", (np.linspace(-3, 3, 10).astype(F32), F32(1.25)),
         lambda b, x, s: [xla.BitcastConvertType(x, "F16"), xla.BitcastConvertType(s, "F16"),
                          xla.BitcastConvertType(xla.BitcastConvertType(x, "F16"), "F32")],
         lambda x, s: [x.view(F16).reshape(10, 2), s.reshape(1).view(F16), x]),
]

SUITE = Suite("seed_examples", CASES)
test_seed_example = numeric_test(SUITE)


@pytest.mark.parametrize("name", [c.name for c in CASES if c.seed is not None])
@pytest.mark.every_case
def test_seed_literal_against_oracle(name):
    seed_check(SUITE.cases[name])
