"""shlo-fence-gathered-slices: gathers and reverses of strided slices (IREE 3.13's llvm-cpu
compile failed on every one: "LLVM Translation failed ... unrealized_conversion_cast") compile
and agree with numpy or XLA's CPU, exactly (they compute nothing), at real sizes, on cpu and
vulkan, in a loop body too."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo
from conftest import cases_on, vulkan_or_skip
from shlo.passes.pipeline import run_pipeline

SHAPE = (2, 512, 1024)      # 1M elements


def _program(x, i):
    """jax's gathers and reverses of strided views of `x` (columns, every other element)."""
    column = x[0, :, 1]                                     # a 3-D column, reshaped to 1-D
    evens = x[1, 7, ::2]

    def step(k, acc):
        return acc + jnp.take(x[k, :, 3], i)                # a slice of the loop's index
    return (jnp.flip(column), jnp.take(evens, i), jnp.flip(x[:, :, 5:6], 1),
            jnp.take(x[:, 3:4, ::4], i % 256, axis=2), jnp.flip(x[1, ::3, ::5], 0),
            jax.lax.fori_loop(0, 2, step, jnp.zeros(i.shape, x.dtype)))


def _numpy(x, i):
    return (x[0, :, 1][::-1], x[1, 7, ::2][i], x[:, ::-1, 5:6], x[:, 3:4, ::4][:, :, i % 256],
            x[1, ::3, ::5][::-1], x[0, :, 3][i] + x[1, :, 3][i])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_gathers_and_reverses_of_strided_slices(target):
    """Shlo-fuzz seed 147 program 174 (a reverse of a slice of a pad); without the barriers
    the cpu compile fails: 'LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast'."""
    if target == "vulkan":
        vulkan_or_skip()
    rng = np.random.default_rng(174)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    i = rng.integers(0, 512, 4096).astype(np.int32)
    text = jax.jit(_program).lower(x, i).as_text()
    got = shlo.compile(text, target=target, cache=False)(x, i)
    for g, want in zip(got, _numpy(x, i)):
        np.testing.assert_array_equal(np.asarray(g), want)


def test_the_gather_reads_the_slice_through_a_barrier():
    x, i = np.zeros(SHAPE, np.float32), np.zeros(8, np.int32)
    module = shlo.parse_module(jax.jit(lambda x, i: jnp.take(x[1, 7, ::2], i)).lower(x, i)
                               .as_text())
    run_pipeline(module, "builtin.module(inline, shlo-fence-gathered-slices)")
    text = str(module)
    assert text.index("stablehlo.slice") < text.index("compute_barrier.start") < \
        text.index("stablehlo.gather")


CASES = {   # name: (function, argument shape, dtype)
    "vector": (lambda x: x[3:65531:2][::-1], (65536,), np.float32),
    "bf16": (lambda x: x[3:9:2][::-1], (16,), jnp.bfloat16),
    "f64": (lambda x: jnp.flip(x[5:65536:7]), (65536,), np.float64),
    "rows_strided_columns": (lambda x: x[:, 3:1003:2][::-1], (64, 1024), np.float32),
    "columns": (lambda x: x[:, 3:1003:2][:, ::-1], (64, 1024), np.float32),
    "both_strided_both_reversed": (lambda x: x[1::3, ::4][::-1, ::-1], (99, 1000), np.int32),
    "transposed": (lambda x: x[:, 3:1003:2].T[:, ::-1], (64, 1024), np.float32),
    "read_twice": (lambda x: x[:, 3:1003:2][::-1] + x[:, 3:1003:2], (64, 1024), np.float32),
    "u8": (lambda x: x[2::5][::-1] * 3, (1 << 20,), np.uint8),
}


@pytest.mark.parametrize("name,target", [(n, "cpu") for n in CASES] +
                         [(n, "vulkan") for n in cases_on("vulkan", CASES)])
def test_reverse_of_strided_slice(name, target):
    if target == "vulkan":
        vulkan_or_skip()
    f, shape, dtype = CASES[name]
    x = (np.random.default_rng(0).standard_normal(shape) * 100).astype(dtype)
    with jax.enable_x64(dtype == np.float64):
        text = jax.jit(f).lower(x).as_text()
        expected = np.asarray(jax.jit(f, backend="cpu")(x))
    np.testing.assert_array_equal(np.asarray(shlo.compile(text, target=target)(x)), expected)


DYNAMIC = {     # name: (function of x and two starts, argument shape, dtype)
    "column": (lambda x, i, j: jax.lax.dynamic_slice(x, (i, j), (250, 1))[::-1, ::-1],
               (256, 512), np.int32),
    "bf16_column": (lambda x, i, j: jax.lax.dynamic_slice(x, (i, j), (5, 1))[::-1],
                    (6, 8), jnp.bfloat16),
    "columns_reversed": (lambda x, i, j: jax.lax.dynamic_slice(x, (i, j), (64, 3))[:, ::-1],
                         (64, 65536), np.float32),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_reverse_of_dynamic_slice_of_rows(target):
    """A reverse of a dynamic_slice whose rows lie apart in memory (fuzz seed 116 program 68: a
    [5, 1] column of a bf16 [6, 8], reversed: the same LLVM failure on the cpu); starts
    inside, clamped and negative, against XLA."""
    if target == "vulkan":
        vulkan_or_skip()
    for name, (f, shape, dtype) in DYNAMIC.items():
        x = (np.random.default_rng(1).standard_normal(shape) * 100).astype(dtype)
        exe = shlo.compile(jax.jit(f).lower(x, np.int32(0), np.int32(0)).as_text(),
                           target=target)
        for i, j in ((0, 0), (3, 5), (-2, 99999), (1, shape[1] - 2)):
            args = (x, np.int32(i), np.int32(j))
            np.testing.assert_array_equal(np.asarray(exe(*args)),
                                          np.asarray(jax.jit(f)(*args)), err_msg=f"{name} {i} {j}")
