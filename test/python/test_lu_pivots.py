"""jax's permutation loop over getrf's pivots in closed form (shlo-expand-custom-calls{lapack=host},
shlo.passes.custom_calls.lapack.lu_pivots): jax.lax.linalg.lu's pivots and permutation bit
for bit against XLA's, square, tall and wide, matrices whose pivots chain (row swaps that
move a row twice), singular and NaN columns; the closed form itself against the loop in numpy
for random pivots >= i."""
import jax
import numpy as np
import pytest

import shlo
from shlo.passes.pipeline import run_pipeline


def _loop(pivots, m):
    perm = np.arange(m, dtype=np.int32)
    for i, p in enumerate(pivots):
        perm[i], perm[p] = perm[p], perm[i]
    return perm


def _lu(a):
    return jax.lax.linalg.lu(a)


def _matrix(kind, shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    n = min(shape)
    if kind == "chained":                       # rows moved down by a cycle: pivots chain
        a = np.eye(shape[0])[np.roll(np.arange(shape[0]), 3)][:, :shape[1]] \
            + 1e-3 * a
    elif kind == "singular":
        a[:, n // 2] = 0.0
        a[:, 1] = a[:, 0]
    elif kind == "nan":
        a[5, n // 3] = np.nan
    return a.astype(dtype)


CASES = [("random", (256, 256), np.float32), ("random", (300, 200), np.float32),
         ("random", (200, 300), np.float64), ("chained", (256, 256), np.float32),
         ("singular", (96, 96), np.float64), ("nan", (64, 64), np.float32),
         ("random", (1, 1), np.float32), ("random", (70, 70), np.complex64)]


@pytest.mark.parametrize("kind, shape, dtype", CASES)
def test_lu_permutation_against_xla(kind, shape, dtype):
    a = _matrix(kind, shape, dtype)
    with jax.enable_x64(dtype == np.float64):
        want = [np.asarray(w) for w in jax.jit(_lu)(a)]
        text = jax.jit(_lu).lower(a).as_text()
    got = shlo.compile(text, target="cpu")(a)
    np.testing.assert_array_equal(got[1], want[1])                 # pivots
    np.testing.assert_array_equal(got[2], want[2])                 # permutation
    np.testing.assert_array_equal(got[2], _loop(want[1], shape[0]))
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)


def test_batched_pivots_keep_their_loop_and_agree():
    a = np.random.default_rng(2).standard_normal((3, 48, 48)).astype(np.float32)
    want = [np.asarray(w) for w in jax.jit(_lu)(a)]
    got = shlo.compile(jax.jit(_lu).lower(a).as_text(), target="cpu")(a)
    np.testing.assert_array_equal(got[2], want[2])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)


def test_the_loop_is_gone_for_host_lapack_only(ctx):
    a = np.zeros((128, 128), np.float32)
    text = jax.jit(_lu).lower(a).as_text()
    for lapack, loops in (("host", 0), ("stablehlo", 2)):    # getrf's own loop and jax's
        module = shlo.parse_module(text, context=ctx)
        run_pipeline(module.operation,
                     f"builtin.module(inline, shlo-expand-custom-calls{{lapack={lapack}}})")
        assert str(module).count("stablehlo.while") == loops, lapack


def test_closed_form_against_the_loop(ctx):
    """Random pivots in [i, m), many short ones and a few long, one module."""
    from iree.compiler import ir
    from iree.compiler.dialects import func
    from shlo.passes.custom_calls.lapack.lu_pivots import permutation
    rng = np.random.default_rng(1)
    cases = [(k, m) for m in (1, 2, 3, 7, 64, 300) for k in {1, max(1, m // 2), m}]
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(module.body):
            for k, m in cases:
                @func.FuncOp.from_py_func(ir.RankedTensorType.get([k], i32), name=f"p_{k}_{m}")
                def fn(p, m=m):
                    return permutation(p, m)
    exe = shlo.compile(module, target="cpu")
    for k, m in cases:
        for trial in range(20):
            near = rng.random() < 0.5            # short swaps: long chains
            pivots = np.array([rng.integers(i, min(m, i + 2) if near else m) for i in range(k)],
                              np.int32)
            got = exe.function(f"p_{k}_{m}")(pivots)
            np.testing.assert_array_equal(got, _loop(pivots, m), err_msg=f"{k} {m} {pivots}")
