"""shlo-lower-sort{top-k=true} (cpu and Vulkan): a sort cut to its first k becomes IREE's top-k
of packed (key, position) integers, directly or over the k chunks with the largest maxima.

One module (one compile per target) holds every case; the oracle is numpy's stable argsort of the keys'
order (TOTALORDER for chlo.top_k, jax's canonical order for the sort-then-slice, a plain float
compare as approx_max_k's with NaNs last), ties by position. Keys have ties, NaNs of both
signs, signed zeros, infinities and the integer extremes; rows are long enough for the
chunked form and short enough for the direct one.
"""
import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.passes.base import nested_ops
from shlo.passes.chlo.legalize_chlo import LegalizeChlo
from shlo.passes.sort import sort_top_k
from shlo.passes.sort.lower_sort import LowerSort

from conftest import vulkan_or_skip
from test_lower_sort import JAX_F32_LESS

DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "i32": np.int32,
          "ui32": np.uint32, "i8": np.int8}
TOP_K = {   # function -> (element type, shape, k): chlo.top_k along the last dimension
    "chunked_f32": ("f32", (64, 4096), 16),
    "ranked_f32": ("f32", (32, 4096), 40),        # the selections of 80 to 160 by rank
    "ranked_short_rows_f32": ("f32", (4096, 24), 8),  # by rank, a scatter of 98K values
    "padded_chunks_f32": ("f32", (1, 100000), 7),
    "k1_i32": ("i32", (5, 3000), 1),
    "ui32": ("ui32", (4, 2048), 8),
    "direct_f16": ("f16", (8, 40), 10),
    "long_direct_f32": ("f32", (1, 5000), 2),     # fused, over IREE's stack limit: a barrier
    "bf16": ("bf16", (2, 5000), 3),
    "i8": ("i8", (16, 600), 4),
    "rank3_f32": ("f32", (2, 3, 2000), 10),
}


def t(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def top_k_function(name, element, shape, k):
    out = shape[:-1] + (k,)
    return f"""
func.func @{name}(%x: {t(shape, element)}) -> ({t(out, element)}, {t(out, 'i32')}) {{
  %0:2 = chlo.top_k(%x, k = {k}) : {t(shape, element)} -> ({t(out, element)}, {t(out, 'i32')})
  return %0#0, %0#1 : {t(out, element)}, {t(out, 'i32')}
}}"""


# jnp.argsort-like: sort (keys, positions) along dimension 0 in jax's order, keep the first 5
SORT_THEN_SLICE = f"""
func.func @first_five_along_0(%x: tensor<3000x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xi32>) {{
  %i = stablehlo.iota dim = 0 : tensor<3000x3xi32>
  %0:2 = "stablehlo.sort"(%x, %i) <{{dimension = 0 : i64, is_stable = true}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):{JAX_F32_LESS}
  }}) : (tensor<3000x3xf32>, tensor<3000x3xi32>) -> (tensor<3000x3xf32>, tensor<3000x3xi32>)
  %1 = stablehlo.slice %0#0 [0:5, 0:3] : (tensor<3000x3xf32>) -> tensor<5x3xf32>
  %2 = stablehlo.slice %0#1 [0:5, 0:3] : (tensor<3000x3xi32>) -> tensor<5x3xi32>
  return %1, %2 : tensor<5x3xf32>, tensor<5x3xi32>
}}"""

# jax.lax.approx_max_k's comparator: a plain float compare (NaN neither before nor after)
PLAIN_GREATER = """
func.func @plain_greater(%x: tensor<2x5000xf32>) -> (tensor<2x6xf32>, tensor<2x6xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<2x5000xi32>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<2x5000xf32>, tensor<2x5000xi32>) -> (tensor<2x5000xf32>, tensor<2x5000xi32>)
  %1:2 = stablehlo.optimization_barrier %0#0, %0#1 : tensor<2x5000xf32>, tensor<2x5000xi32>
  %2 = stablehlo.slice %1#0 [0:2, 0:6] : (tensor<2x5000xf32>) -> tensor<2x6xf32>
  %3 = stablehlo.slice %1#1 [0:2, 0:6] : (tensor<2x5000xi32>) -> tensor<2x6xi32>
  return %2, %3 : tensor<2x6xf32>, tensor<2x6xi32>
}"""

MODULE = "\n".join([top_k_function(name, *case) for name, case in TOP_K.items()]
                   + [SORT_THEN_SLICE, PLAIN_GREATER])


def total_order(x: np.ndarray) -> np.ndarray:
    """int64 keys in IEEE totalOrder (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN)."""
    if x.dtype.kind in "iu":
        return x.astype(np.int64)
    width = 8 * x.dtype.itemsize
    bits = x.view({2: np.uint16, 4: np.uint32}[x.dtype.itemsize]).astype(np.int64)
    return np.where(bits >> (width - 1), -(bits & ((1 << (width - 1)) - 1)) - 1, bits)


def keys(rng, element, shape):
    dtype = DTYPES[element]
    n = int(np.prod(shape))
    if element in ("i32", "ui32", "i8"):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, int(info.max) + 1, n, dtype=np.int64)
        x[::5] = x[3]                       # ties
        x[1], x[2] = info.min, info.max
        return x.astype(dtype).reshape(shape)
    x = rng.standard_normal(n).astype(np.float32) * 100
    x[::7] = x[3]                           # ties
    x[1], x[2], x[4], x[5] = np.nan, -np.nan, -0.0, 0.0
    x[6], x[8] = np.inf, -np.inf
    x = x.reshape(shape)
    if shape[-1] > 11:
        x[..., 11] = np.nan                 # a NaN in every row
    return x.astype(dtype)


def top_k_oracle(x, k):
    order = np.argsort(-total_order(x), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(np.int32)


@pytest.fixture(scope="module", params=["cpu", "vulkan"])
def module_and_exe(ctx, request):
    if request.param == "vulkan":
        vulkan_or_skip()
    module = shlo.parse_module(MODULE, context=ctx)
    LegalizeChlo().apply(module)
    LowerSort(top_k=True).apply(module)
    return module, shlo.compile(module, target=request.param)


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(f"u{got.dtype.itemsize}"),
                                  want.view(f"u{want.dtype.itemsize}"))   # NaN signs, -0


@pytest.mark.slow
def test_every_sort_became_iree_top_k(module_and_exe):
    module, _ = module_and_exe
    assert not list(nested_ops(module.operation, "stablehlo.sort"))
    functions = {str(f.attributes["sym_name"]).strip('"'): f
                 for f in nested_ops(module.operation, "func.func")}
    count = {name: len(list(nested_ops(f, "iree_linalg_ext.topk")))
             for name, f in functions.items()}
    for name, (_, shape, k) in TOP_K.items():   # a topk per selection not made by rank
        n, rows = shape[-1], int(np.prod(shape[:-1]))
        plan, sizes = sort_top_k.top_k_plan(n, k, rows), []
        while plan.chunk is not None:           # each level's k chunks, then the top maxima
            sizes, n, plan = sizes + [k * plan.chunk], -(-n // plan.chunk), plan.maxima
        if name == "chunked_f32":
            assert len(sizes) >= 2              # chunk maxima of chunk maxima
        topks = sum(not sort_top_k.by_rank(m, k) for m in sizes + [n])
        assert count[name] == (topks if k > 1 else 0), name
    assert count["k1_i32"] == 0                 # the largest: a max reduction
    assert sort_top_k.by_rank(40, 10) and count["direct_f16"] == 0     # 10 of 40: by rank
    assert count["ranked_short_rows_f32"] == 0
    assert count["long_direct_f32"] == 1
    fenced = functions["long_direct_f32"]
    assert len(list(nested_ops(fenced, "iree_tensor_ext.compute_barrier.start"))) == 1


@pytest.mark.parametrize("name", TOP_K)
def test_top_k_is_the_stable_descending_total_order(module_and_exe, name):
    element, shape, k = TOP_K[name]
    x = keys(np.random.default_rng(len(name)), element, shape)
    values, indices = module_and_exe[1].function(name)(x)
    want_values, want_indices = top_k_oracle(x, k)
    same(indices, want_indices)
    same(values, want_values)


def test_sort_then_slice_along_dimension_0_in_jax_order(module_and_exe):
    x = keys(np.random.default_rng(1), "f32", (3000, 3))
    values, indices = module_and_exe[1].function("first_five_along_0")(x)
    canonical = np.where(np.isnan(x), np.float32(np.nan), x + np.float32(0))  # one NaN, -0 -> 0
    order = np.argsort(total_order(canonical), axis=0, kind="stable")[:5]
    same(indices, order.astype(np.int32))
    same(values, np.take_along_axis(x, order, 0))


def test_without_rank_selections_every_selection_is_iree_top_k(ctx):
    """top-k-rank=false (for lavapipe, where ranks measured slower): the plan of topk levels."""
    module = shlo.parse_module(top_k_function("no_rank", "f32", (32, 4096), 40), context=ctx)
    LegalizeChlo().apply(module)
    LowerSort(top_k=True, top_k_rank=False).apply(module)
    plan, levels = sort_top_k.top_k_plan(4096, 40, 32, ranked=False), 0
    while plan.chunk is not None:
        levels, plan = levels + 1, plan.maxima
    assert levels == 3
    assert len(list(nested_ops(module.operation, "iree_linalg_ext.topk"))) == levels + 1
    assert not list(nested_ops(module.operation, "stablehlo.scatter"))


def test_cost_model_keeps_the_network_where_it_is_cheaper(ctx):
    """k = 1024 of 4096: the network (78 steps) beats a top-k of 1024 compares per element."""
    module = shlo.parse_module(top_k_function("wide_k", "f32", (4, 4096), 1024), context=ctx)
    LegalizeChlo().apply(module)
    LowerSort(top_k=True).apply(module)
    assert not list(nested_ops(module.operation, "iree_linalg_ext.topk"))
    assert not list(nested_ops(module.operation, "stablehlo.sort"))      # the network


def test_a_plain_float_compare_puts_nans_last_and_keeps_signed_zeros_in_place(module_and_exe):
    x = -np.abs(np.random.default_rng(2).standard_normal((2, 5000)).astype(np.float32)) - 1
    x[:, [10, 20, 30, 40]] = [np.nan, -0.0, 0.0, -0.0]     # zeros tie: by position
    x[1, 50] = np.inf
    x[1, 60] = -np.nan
    values, indices = module_and_exe[1].function("plain_greater")(x)
    key = np.where(np.isnan(x), -np.inf, x + np.float32(0))     # NaN after -inf
    order = np.argsort(-key.astype(np.float64), axis=1, kind="stable")[:, :6]
    assert not np.isnan(np.take_along_axis(x, order, 1)).any()
    same(indices, order.astype(np.int32))
    same(values, np.take_along_axis(x, order, 1))


def test_empty_rows_f8_and_bool_keys(ctx):
    """No rows at all (a sort of nothing is the identity), 8-bit float and boolean keys."""
    exe = shlo.compile(shlo.parse_module("\n".join([
        top_k_function("empty", "f32", (0, 4096), 16),
        top_k_function("f8", "f8E4M3FN", (4, 1000), 3),
        top_k_function("boolean", "i1", (4, 1000), 3)]), context=ctx), target="cpu")
    values, indices = exe.function("empty")(np.zeros((0, 4096), np.float32))
    assert values.shape == indices.shape == (0, 16)
    x = np.random.default_rng(3).standard_normal((4, 1000)).astype(ml_dtypes.float8_e4m3fn)
    x[:, 7] = np.nan
    values, indices = exe.function("f8")(x)
    want_values, want_indices = top_k_oracle(x.astype(np.float32), 3)   # f32 exact: same order
    same(indices, want_indices)
    same(values, want_values.astype(ml_dtypes.float8_e4m3fn))
    b = np.random.default_rng(4).integers(0, 2, (4, 1000)).astype(bool)
    values, indices = exe.function("boolean")(b)
    order = np.argsort(-b.astype(np.int32), axis=1, kind="stable")[:, :3]
    same(indices, order.astype(np.int32))
    same(values, np.take_along_axis(b, order, 1))
