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
