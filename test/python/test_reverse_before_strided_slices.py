"""A reverse of a strided slice (passes/dispatch/reverse_before_strided_slices.py): IREE 3.13's
llvm-cpu compile failed on every one ("LLVM Translation failed ... unrealized_conversion_cast");
shlo reverses the slice's operand and slices that. Each case runs at a real size on the CPU
(half of them on Vulkan too) against XLA's CPU, exactly (a reverse and a slice compute
nothing)."""
import numpy as np
import pytest

import shlo
from conftest import cases_on, vulkan_or_skip

jax = pytest.importorskip("jax")
jnp = jax.numpy

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
    [5, 1] column of a bf16 [6, 8], reversed: the same LLVM failure on the cpu) is the
    dynamic_slice of the reverse at the mirrored starts; starts inside, clamped and negative,
    against XLA."""
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
