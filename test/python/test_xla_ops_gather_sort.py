"""XlaBuilder Gather, Scatter (single and multi-operand, replace and combine), Sort (one and
several operands, stable, comparators as callables and XlaComputations) and TopK on CPU and
Vulkan. The gather/scatter oracles follow the seed's formal index mapping literally.
"""
import itertools

import numpy as np

from shlo import xla
from xla_suite import Case, Suite, binary_computation, build_error, numeric_test, rng

R = rng(23)
F32, I32 = np.float32, np.int32


def gather_oracle(operand, idx, offset_dims, collapsed, start_index_map, index_vector_dim,
                  slice_sizes):
    """The seed's Gather: batch dims pick a start vector, mapped by start_index_map, clamped so
    the slice is in bounds, plus the offset dims remapped around collapsed_slice_dims."""
    if index_vector_dim == idx.ndim:
        idx = idx[..., None]
    batch_shape = [n for d, n in enumerate(idx.shape) if d != index_vector_dim]
    rank = len(batch_shape) + len(offset_dims)
    batch_dims = [d for d in range(rank) if d not in offset_dims]
    adjusted = [s for d, s in enumerate(slice_sizes) if d not in collapsed]
    remapped = [d for d in range(operand.ndim) if d not in collapsed]
    shape = [adjusted[offset_dims.index(d)] if d in offset_dims
             else batch_shape[batch_dims.index(d)] for d in range(rank)]
    out = np.empty(shape, operand.dtype)
    for o in itertools.product(*map(range, shape)):
        g = [o[d] for d in batch_dims]
        vector_at = g[:index_vector_dim] + [slice(None)] + g[index_vector_dim:]
        s = idx[tuple(vector_at)]
        start = [0] * operand.ndim
        for k, d in enumerate(start_index_map):
            start[d] = int(np.clip(s[k], 0, operand.shape[d] - slice_sizes[d]))
        full = list(start)
        for k, d in enumerate(offset_dims):
            full[remapped[k]] += o[d]
        out[o] = operand[tuple(full)]
    return out


def scatter_oracle(operands, idx, updates, combine, update_window_dims, inserted_window_dims,
                   scatter_dims_to_operand_dims, index_vector_dim):
    """The seed's Scatter, updates applied in index order (only commutative combines or unique
    indices are tested, so the order XLA leaves open does not matter)."""
    if index_vector_dim == idx.ndim:
        idx = idx[..., None]
    outs = [o.copy() for o in operands]
    rank = outs[0].ndim
    window_to_operand = [d for d in range(rank) if d not in inserted_window_dims]
    scatter_dims = [d for d in range(updates[0].ndim) if d not in update_window_dims]
    for u in itertools.product(*map(range, updates[0].shape)):
        g = [u[d] for d in scatter_dims]
        s = idx[tuple(g[:index_vector_dim] + [slice(None)] + g[index_vector_dim:])]
        full = [0] * rank
        for k, d in enumerate(scatter_dims_to_operand_dims):
            full[d] += int(s[k])
        for k, d in enumerate(update_window_dims):
            full[window_to_operand[k]] += u[d]
        at = tuple(full)
        if all(0 <= a < n for a, n in zip(at, outs[0].shape)):
            new = combine(*[o[at] for o in outs], *[up[u] for up in updates])
            for o, v in zip(outs, new if isinstance(new, tuple) else (new,)):
                o[at] = v
    return outs if len(outs) > 1 else outs[0]


def gather_case(name, operand, idx, offset_dims, collapsed, start_index_map, ivd, slice_sizes):
    def build(b, x, i):
        dnums = xla.GatherDimensionNumbers(offset_dims=offset_dims, collapsed_slice_dims=collapsed,
                                           start_index_map=start_index_map,
                                           index_vector_dim=ivd)
        return xla.Gather(x, i, dnums, slice_sizes)
    return Case(name, (operand, idx), build,
                lambda x, i: gather_oracle(x, i, offset_dims, collapsed, start_index_map, ivd,
                                           slice_sizes))


def scatter_dnums(update_window_dims, inserted_window_dims, to_operand, ivd):
    return xla.ScatterDimensionNumbers(update_window_dims=update_window_dims,
                                       inserted_window_dims=inserted_window_dims,
                                       scatter_dims_to_operand_dims=to_operand,
                                       index_vector_dim=ivd)


def first(result, n):
    return [xla.GetTupleElement(result, i) for i in range(n)]


def sort_oracle(*xs, key=0, dimension=-1, descending=False):
    k = -xs[key] if descending else xs[key]
    order = np.argsort(k, axis=dimension, kind="stable")
    return [np.take_along_axis(x, order, axis=dimension) for x in xs]


def topk_oracle(x, k, largest):
    order = np.argsort(-x if largest else x, axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, order, -1), order.astype(I32)]


OPERAND = np.arange(16 * 11, dtype=F32).reshape(16, 11)
ROWS = R.standard_normal((5, 3)).astype(F32)
KEYS = R.permutation(20).astype(F32).reshape(4, 5)
DUP_KEYS = np.array([3, 1, 2, 1, 3, 2, 1, 0], I32)
LESS = binary_computation("less", xla.Lt)

CASES = [
    gather_case("gather_rows", ROWS, np.array([[1], [3], [0], [1]], I32), [1], [0], [0], 1, [1, 3]),
    gather_case("gather_batched_slices", OPERAND, np.array([[1, 2], [10, 3], [0, 0], [15, 9],
                                                            [4, 7]], I32),
                [1, 2], [], [0, 1], 1, [8, 6]),
    gather_case("gather_implicit_index_vector_dim", ROWS, np.array([4, 0, 2], I32), [1], [0], [0],
                1, [1, 3]),
    gather_case("gather_index_vector_dim_0", OPERAND, np.array([[2, 5, 14], [1, 0, 9]], I32),
                [0], [1], [1, 0], 0, [4, 1]),
    gather_case("gather_offset_dims_first", OPERAND, np.array([[3], [6]], I32), [0], [0], [0], 1,
                [1, 11]),
    Case("scatter_add_duplicates", (np.zeros((5, 3), F32), np.array([[1], [3], [1]], I32),
                                    R.standard_normal((3, 3)).astype(F32)),
         lambda b, x, i, u: xla.Scatter(x, i, u, lambda p, q: xla.Add(p, q),
                                        scatter_dnums([1], [0], [0], 1)),
         lambda x, i, u: scatter_oracle([x], i, [u], lambda p, q: p + q, [1], [0], [0], 1),
         rtol=1e-6, atol=1e-6),
    Case("scatter_replace_unique", (ROWS, np.array([[4], [0]], I32), -np.ones((2, 3), F32)),
         lambda b, x, i, u: xla.Scatter([x], i, [u], lambda p, q: q,
                                        scatter_dnums([1], [0], [0], 1), indices_are_sorted=False,
                                        unique_indices=True),
         lambda x, i, u: scatter_oracle([x], i, [u], lambda p, q: q, [1], [0], [0], 1)),
    Case("scatter_2d_windows", (np.arange(24, dtype=F32).reshape(4, 6),
                                np.array([[0, 1], [2, 3]], I32),
                                R.uniform(1, 2, (2, 2, 2)).astype(F32)),
         lambda b, x, i, u: xla.Scatter(x, i, u, binary_computation("mul", xla.Mul),
                                        scatter_dnums([1, 2], [], [0, 1], 1)),
         lambda x, i, u: scatter_oracle([x], i, [u], lambda p, q: p * q, [1, 2], [],
                                        [0, 1], 1)),
    Case("scatter_multi_operand", (np.zeros(6, F32), np.full(6, -100, I32),
                                   np.array([[5], [2], [5]], I32),
                                   np.array([1.5, 2.0, 3.0], F32), np.array([7, -4, 9], I32)),
         lambda b, x, y, i, u, v: first(xla.Scatter(
             [x, y], i, [u, v], lambda p, q, r, s: xla.Tuple([xla.Add(p, r), xla.Max(q, s)]),
             scatter_dnums([], [0], [0], 1)), 2),
         lambda x, y, i, u, v: scatter_oracle([x, y], i, [u, v], lambda p, q, r, s: (p + r,
                                              max(q, s)), [], [0], [0], 1)),
    Case("sort_rows_callable", (KEYS,), lambda b, x: xla.Sort([x], lambda p, q: xla.Lt(p, q), 1),
         lambda x: sort_oracle(x, dimension=1)[0]),
    Case("sort_columns_descending", (KEYS,),
         lambda b, x: xla.Sort(x, binary_computation("greater", xla.Gt), dimension=0),
         lambda x: sort_oracle(x, dimension=0, descending=True)[0]),
    Case("sort_single_s32_computation", (R.integers(-50, 50, 12).astype(I32),),
         lambda b, x: xla.Sort(x, binary_computation("lt_s32", xla.Lt, I32), 0),
         lambda x: np.sort(x)),
    Case("sort_key_value", (np.array([3, 1], I32), np.array([42, 50], I32),
                            np.array([-3.0, 1.1], F32)),
         lambda b, k, v, w: first(xla.Sort([k, v, w], lambda k1, k2, v1, v2, w1, w2: xla.Lt(k1, k2),
                                           0), 3),
         lambda k, v, w: sort_oracle(k, v, w)),
    Case("sort_stable_duplicates", (DUP_KEYS, np.arange(8, dtype=I32)),
         lambda b, k, v: first(xla.Sort([k, v], lambda k1, k2, v1, v2: xla.Lt(k1, k2), 0,
                                        is_stable=True), 2),
         lambda k, v: sort_oracle(k, v)),
    Case("top_k_largest", (KEYS,), lambda b, x: first(xla.TopK(x, 3, True), 2),
         lambda x: topk_oracle(x, 3, True)),
    Case("top_k_smallest_ties", (np.array([[2, 1, 2, 0, 1, 2], [5, 5, 5, 4, 4, 3]], F32),),
         lambda b, x: first(xla.TopK(x, 4, largest=False), 2), lambda x: topk_oracle(x, 4, False)),
    Case("top_k_largest_ties", (np.array([1, 3, 3, 2, 3, 0], F32),),
         lambda b, x: first(xla.TopK(x, 2, largest=True), 2), lambda x: topk_oracle(x, 2, True)),
]

SUITE = Suite("gather_sort", CASES)
test_gather_scatter_sort = numeric_test(SUITE)


def test_sort_comparator_wrong_arity_raises():
    error = build_error([(F32, [4]), (F32, [4])], lambda b, k, v: xla.Sort([k, v], LESS, 0))
    assert "sort" in str(error).lower()


def test_gather_bad_slice_sizes_raises():
    dnums = xla.GatherDimensionNumbers(offset_dims=[1], collapsed_slice_dims=[0],
                                       start_index_map=[0], index_vector_dim=1)
    # slice size 4 > operand dimension 3
    build_error([(F32, [5, 3]), (I32, [2, 1])], lambda b, x, i: xla.Gather(x, i, dnums, [1, 4]))
