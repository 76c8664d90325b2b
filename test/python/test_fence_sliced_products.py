"""Products of slices that are not one contiguous piece of their operand, and such slices of
a widening product (passes/dispatch/fence_sliced_products.py): IREE 3.13's data-tiled
llvm-cpu compile failed on the first ("exceeded stack allocation limit", "large vector
sizes") and took over a minute on the second. Each program runs on the CPU (half of them on
Vulkan too) against XLA's CPU."""
import numpy as np
import pytest

import shlo.jax as shlo_jax
from conftest import cases_on, vulkan_or_skip

jax = pytest.importorskip("jax")
jnp = jax.numpy


def _attention(x, w):
    """Single-head attention with a fused QKV projection."""
    d = w.shape[1] // 3
    y = x @ w
    q, k, v = y[..., :d], y[..., d:2 * d], y[..., 2 * d:]
    return jax.nn.softmax(q @ k.swapaxes(-1, -2) / np.sqrt(d), -1) @ v


CASES = {   # name: (function, argument shapes)
    "columns": (lambda x, z: x[:, :32] @ z, [(256, 64), (32, 256)]),
    "columns_at_an_offset": (lambda x, z: x[:, 64:128] @ z, [(256, 192), (64, 256)]),
    "rhs_columns": (lambda z, x: z @ x[:, :256], [(256, 128), (128, 512)]),
    "strided_rows": (lambda x, z: x[::2] @ z, [(512, 64), (64, 256)]),
    "matrix_vector": (lambda x, v: x[:, :64] @ v, [(256, 128), (64,)]),
    "batched_rows": (lambda x, z: x[:, :128] @ z, [(8, 256, 64), (8, 64, 128)]),
    "two_slices_of_one_value": (lambda x, w: (lambda y: y[:, :8] @ y[:, 8:].T)(x @ w),
                                [(128, 8), (8, 16)]),
    "fused_qkv_attention": (_attention, [(8, 128, 64), (64, 192)]),
    "fused_qkv_gradient": (jax.grad(lambda x, w: (_attention(x, w) ** 2).sum(), argnums=(0, 1)),
                           [(8, 128, 64), (64, 192)]),
    # a widening product whose result is sliced: LLVM took 71 s over it before the fence
    "int8_product_sliced": (lambda a, b: jnp.matmul(a, b, preferred_element_type=jnp.int32)
                            [:, :100], [(128, 128), (128, 128)]),
}
INTEGERS = {"int8_product_sliced": np.int8}


@pytest.mark.parametrize("name,target", [(n, "cpu") for n in CASES] +
                         [(n, "vulkan") for n in cases_on("vulkan", CASES)])
def test_product_of_a_slice(name, target):
    if target == "vulkan":
        vulkan_or_skip()
    f, shapes = CASES[name]
    rng = np.random.default_rng(0)
    if name in INTEGERS:
        args = [rng.integers(-100, 100, s).astype(INTEGERS[name]) for s in shapes]
    else:
        args = [(rng.standard_normal(s) / 8).astype(np.float32) for s in shapes]
    expected = jax.tree.leaves(jax.jit(f, backend="cpu")(*args))
    got = jax.tree.leaves(shlo_jax.jit(f, target=target)(*args))
    for g, e in zip(got, expected):
        e = np.asarray(e)
        np.testing.assert_allclose(np.asarray(g), e, rtol=2e-5, atol=2e-5 * np.abs(e).max())
