"""XlaBuilder reductions and windows (Reduce incl. variadic argmax, ReduceWindow with VALID/SAME/
explicit padding, dilations and several operands, SelectAndScatter, Map, Scan) on CPU and
Vulkan, with sub-computations given both as XlaComputations and as Python callables.
"""
import itertools

import numpy as np

from reference_oracle import reduce_window_oracle
from shlo import xla
from xla_suite import (Case, Suite, binary_computation, build_error, numeric_test, rng,
                       scalar_shape)

R = rng(11)
F32, I32 = np.float32, np.int32
ADD = binary_computation("add", xla.Add)
MAX = binary_computation("max", xla.Max)


def _add_one():
    b = xla.XlaBuilder("add_one")
    x = xla.Parameter(b, 0, scalar_shape(F32), "x")
    return b.build(xla.Add(x, xla.Constant(b, F32(1))))


ADD_ONE = _add_one()


def same_padding(sizes, window, strides):
    """XLA's Padding::kSame: output ceil(n / stride), the total split low-first."""
    pads = []
    for n, w, s in zip(sizes, window, strides):
        out = -(-n // s)
        total = max((out - 1) * s + w - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def select_and_scatter_oracle(x, source, init, window, strides, padding):
    """Max-select (first of equal maxima, in lexicographic window order), add-scatter."""
    out = np.full(x.shape, init, x.dtype)
    for o in itertools.product(*map(range, source.shape)):
        best = None
        for k in itertools.product(*map(range, window)):
            at = tuple(oi * s + ki - lo for oi, s, ki, (lo, _) in zip(o, strides, k, padding))
            if any(a < 0 or a >= n for a, n in zip(at, x.shape)):
                continue
            if best is None or not x[best] >= x[at]:
                best = at
        out[best] += source[o]
    return out


def scan_oracle(x, init, reverse):
    order = range(len(x) - 1, -1, -1) if reverse else range(len(x))
    ys, carry = np.empty_like(x), init
    for i in order:
        carry = carry + x[i]
        ys[i] = carry * 2
    return [ys, np.asarray(carry, x.dtype)]


def argmax_reducer(m, am, v, i):
    take = xla.Gt(v, m)
    return xla.Tuple([xla.Select(take, v, m), xla.Select(take, i, am)])


def argmax_oracle(x):
    return [x.max(1), x.argmax(1).astype(I32)]


def argmax_build(b, x):
    iota = xla.Iota(b, xla.Shape.array_shape(I32, [3, 8]), 1)
    result = xla.Reduce([x, iota], [xla.Constant(b, F32(-np.inf)), xla.Constant(b, I32(0))],
                        argmax_reducer, [1])
    return [xla.GetTupleElement(result, 0), xla.GetTupleElement(result, 1)]


def scan_build(reverse):
    def body(x, c):
        s = xla.Add(x, c)
        return xla.Tuple([xla.Mul(s, xla.Constant(x.builder(), F32(2))), s])

    def build(b, x, c):
        out = xla.Scan([x], [c], body, 0, reverse, False)
        return [xla.GetTupleElement(out, 0), xla.GetTupleElement(out, 1)]
    return build


X = R.standard_normal((4, 6)).astype(F32)
POOL = [10000.0, 1000.0, 100.0, 10.0, 1.0]
X3 = np.tile(np.arange(1, 7, dtype=F32).reshape(2, 3), (4, 1, 1))
NEG_INF = F32(-np.inf)

CASES = [
    Case("reduce_sum_dim1_computation", (X, F32(0)),
         lambda b, x, z: xla.Reduce(x, z, ADD, [1]), lambda x, z: x.sum(1), rtol=1e-5,
         atol=1e-6),
    Case("reduce_sum_all_callable", (X, F32(0)),
         lambda b, x, z: xla.Reduce([x], [z], lambda s, t: xla.Add(s, t), [0, 1]),
         lambda x, z: np.asarray(x.sum(), F32), rtol=1e-5, atol=1e-5),
    Case("reduce_max_dims_unordered", (X3 + R.standard_normal(X3.shape).astype(F32),),
         lambda b, x: xla.Reduce(x, xla.Constant(b, NEG_INF), MAX, [2, 0]),
         lambda x: x.max(axis=(0, 2))),
    Case("reduce_s32_product", (np.arange(1, 13, dtype=I32).reshape(3, 4), I32(1)),
         lambda b, x, one: xla.Reduce(x, one, lambda s, t: xla.Mul(s, t), [1]),
         lambda x, one: np.prod(x, axis=1).astype(I32)),
    Case("reduce_variadic_argmax", (R.permutation(24).astype(F32).reshape(3, 8),),
         argmax_build, argmax_oracle),
    Case("reduce_window_max_valid", (X,),
         lambda b, x: xla.ReduceWindow(x, xla.Constant(b, NEG_INF), MAX, [2, 3], [2, 3],
                                       xla.Padding.VALID),
         lambda x: reduce_window_oracle([x], [NEG_INF], max, [2, 3], [2, 3], [(0, 0)] * 2)),
    Case("reduce_window_min_same", (np.array(POOL, F32),),
         lambda b, x: xla.ReduceWindow(x, xla.Constant(b, F32(np.finfo(F32).max)),
                                       lambda s, t: xla.Min(s, t), [3], [2], xla.Padding.SAME),
         lambda x: reduce_window_oracle([x], [np.finfo(F32).max], min, [3], [2],
                                        same_padding([5], [3], [2]))),
    Case("reduce_window_sum_same_stride1", (X, F32(0)),
         lambda b, x, z: xla.ReduceWindow([x], [z], ADD, [3, 2], [1, 1], "SAME"),
         lambda x, z: reduce_window_oracle([x], [z], lambda a, c: a + c, [3, 2], [1, 1],
                                           same_padding(x.shape, [3, 2], [1, 1])),
         rtol=1e-5, atol=1e-6),
    Case("reduce_window_explicit_padding", (X, F32(0)),
         lambda b, x, z: xla.ReduceWindow(x, z, ADD, [2, 2], [2, 1], [(1, 0), (2, 1)]),
         lambda x, z: reduce_window_oracle([x], [z], lambda a, c: a + c, [2, 2], [2, 1],
                                           [(1, 0), (2, 1)]), rtol=1e-5, atol=1e-6),
    # dilations: XLA's ReduceWindowWithGeneralPadding(..., strides, base_dilations,
    # window_dilations, padding)
    Case("reduce_window_dilations", (np.arange(1, 13, dtype=I32).reshape(4, 3), I32(0)),
         lambda b, x, z: xla.ReduceWindowWithGeneralPadding(
             x, z, lambda s, t: xla.Add(s, t), [2, 2], [2, 1], [2, 1], [3, 2], [(1, 2), (1, 0)]),
         lambda x, z: reduce_window_oracle([x], [z], lambda a, c: a + c, [2, 2], [2, 1],
                                           [(1, 2), (1, 0)], [2, 1], [3, 2])),
    Case("reduce_window_variadic", (X, -X),
         lambda b, x, y: [xla.GetTupleElement(r, i) for r in [xla.ReduceWindow(
             [x, y], [xla.Constant(b, NEG_INF), xla.Constant(b, F32(0))],
             lambda m, s, u, v: xla.Tuple([xla.Max(m, u), xla.Add(s, v)]),
             [2, 2], [1, 2], xla.Padding.VALID)] for i in range(2)],
         lambda x, y: reduce_window_oracle([x, y], [NEG_INF, F32(0)],
                                           lambda m, s, u, v: (max(m, u), s + v), [2, 2],
                                           [1, 2], [(0, 0)] * 2), rtol=1e-5, atol=1e-6),
    Case("select_and_scatter_valid", (X, R.standard_normal((2, 2)).astype(F32), F32(0)),
         lambda b, x, s, z: xla.SelectAndScatter(x, lambda p, q: xla.Ge(p, q), [2, 3], [2, 3],
                                                 xla.Padding.VALID, s, z, ADD),
         lambda x, s, z: select_and_scatter_oracle(x, s, z, [2, 3], [2, 3], [(0, 0)] * 2)),
    Case("select_and_scatter_overlapping", (np.array([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 4, 2],
                                                      [1, 5, 7, 5, 6, 1], [0, 6, 2, 7, 2, 8]],
                                                     F32), np.array([[2, 6], [3, 1]], F32),
                                            F32(0)),
         lambda b, x, s, z: xla.SelectAndScatter(x, binary_computation("ge", xla.Ge), [3, 3],
                                                 [1, 3], xla.Padding.VALID, s, z, ADD),
         lambda x, s, z: select_and_scatter_oracle(x, s, z, [3, 3], [1, 3], [(0, 0)] * 2)),
    Case("map_binary_callable", (X, -X * 2),
         lambda b, x, y: xla.Map([x, y], lambda p, q: xla.Add(xla.Mul(p, q), p), [0, 1]),
         lambda x, y: x * y + x, rtol=1e-6, atol=1e-6),
    Case("map_unary_computation", (X,),
         lambda b, x: xla.Map(x, ADD_ONE, [0, 1]), lambda x: x + 1),
    Case("scan_forward", (R.standard_normal(6).astype(F32), F32(0.5)), scan_build(False),
         lambda x, c: scan_oracle(x, c, False), rtol=1e-5, atol=1e-6),
    Case("scan_reverse", (R.standard_normal(6).astype(F32), F32(-1)), scan_build(True),
         lambda x, c: scan_oracle(x, c, True), rtol=1e-5, atol=1e-6),
]

SUITE = Suite("reduce", CASES)
test_reduce_ops = numeric_test(SUITE)


def test_reduce_computation_of_wrong_arity_raises():
    error = build_error([(F32, [3])], lambda b, x: xla.Reduce(x, xla.Constant(b, F32(0)),
                                                             lambda s: s, [0]))
    assert "reduce" in str(error).lower()


def test_reduce_window_bad_window_rank_raises():
    build_error([(F32, [4, 6])], lambda b, x: xla.ReduceWindow(
        x, xla.Constant(b, F32(0)), ADD, [2], [1], xla.Padding.VALID))
