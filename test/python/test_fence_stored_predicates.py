"""Boolean arrays that IREE reads from memory (arguments, constants, loop values) read by ops
fused into a product (passes/dispatch/fence_stored_predicates.py): IREE 3.13's llvm-cpu compile
with data tiling failed on every one ("'iree_codegen.load_from_buffer' op buffer and tensor
shapes must be compatible and element types must match"). Each program runs on the CPU (half
of them on Vulkan too) against XLA's CPU."""
import numpy as np
import pytest

import shlo.jax as shlo_jax
from conftest import cases_on, vulkan_or_skip

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax

_KEYS = np.random.default_rng(1).random((128, 128)) > 0.3      # a constant of the program


def _attention(q, k, v, mask):
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1]).astype(q.dtype)
    s = jnp.where(mask, s, jnp.asarray(-1e9, s.dtype))
    p = jax.nn.softmax(s.astype(jnp.float32), -1).astype(q.dtype)
    return jnp.einsum("bhqk,bhkd->bhqd", p, v)


def _attention_loss(q, k, v, mask):
    return (_attention(q, k, v, mask).astype(jnp.float32) ** 2).mean()


def _conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


QKV = [(4, 8, 128, 64)] * 3
CASES = {   # name: (function, argument shapes, the boolean arguments' shapes)
    "where_product": (lambda x, m: jnp.where(m, x @ x, 0.), [(4, 256, 256)], [(256, 256)]),
    "times_mask": (lambda x, m: (x @ x) * m.astype(jnp.float32), [(4, 256, 256)],
                   [(256, 256)]),
    "not_and": (lambda x, m: jnp.where(~m & (x > 0), x @ x, 0.), [(4, 256, 256)],
                [(256, 256)]),
    "constant_mask": (lambda x: jnp.where(_KEYS, x @ x, 0.), [(2, 128, 128)], []),
    "loop": (lambda x, m: lax.fori_loop(0, 3, lambda i, a: jnp.where(m, a @ x, 0.) / 8, x),
             [(128, 128)], [(128, 128)]),
    "convolution": (lambda x, w, m: jnp.where(m, _conv(x, w), 0.),
                    [(4, 32, 32, 16), (3, 3, 16, 16)], [(4, 32, 32, 16)]),
    "attention": (_attention, QKV, [(128, 128)]),
    "attention_padding_mask": (lambda q, k, v, m: _attention(q, k, v, m[:, None, None, :]),
                               QKV, [(4, 128)]),
    "attention_gradient": (jax.grad(_attention_loss, argnums=(0, 1, 2)), QKV, [(128, 128)]),
}


def _arguments(name, dtype):
    _, shapes, masks = CASES[name]
    rng = np.random.default_rng(0)
    return [(rng.standard_normal(s) / np.sqrt(s[-1])).astype(dtype) for s in shapes] + \
        [rng.random(s) > 0.3 for s in masks]


def _check(name, target, dtype=np.float32, rtol=2e-5):
    if target == "vulkan":
        vulkan_or_skip()
    f = CASES[name][0]
    args = _arguments(name, dtype)
    expected = jax.tree.leaves(jax.jit(f, backend="cpu")(*args))
    got = jax.tree.leaves(shlo_jax.jit(f, target=target)(*args))
    for g, e in zip(got, expected):
        g, e = np.asarray(g, np.float32), np.asarray(e, np.float32)
        np.testing.assert_allclose(g, e, rtol=rtol, atol=rtol * np.abs(e).max())


@pytest.mark.parametrize("name,target", [(n, "cpu") for n in CASES] +
                         [(n, "vulkan") for n in cases_on("vulkan", CASES)])
def test_stored_predicate_beside_product(name, target):
    _check(name, target)


@pytest.mark.parametrize("name", ["attention", "attention_gradient"])
def test_bf16_attention_with_a_mask(name):
    _check(name, "cpu", jnp.bfloat16, rtol=2e-2)


def test_boolean_matrix_vector_product_into_integers():
    """The operands of an integer product computed from stored booleans (the selects of 1
    and 0 that shlo-legalize-integer-ops makes of a boolean product's operands) failed
    alike."""
    rng = np.random.default_rng(2)
    a, b = rng.random((256, 256)) > 0.5, rng.random(256) > 0.5

    def f(a, b):
        return jnp.matmul(a, b, preferred_element_type=jnp.int32)
    np.testing.assert_array_equal(np.asarray(shlo_jax.jit(f)(a, b)),
                                  np.asarray(jax.jit(f, backend="cpu")(a, b)))
