"""shlo-defer-softmax-division: a matmul of softmax weights divides by the softmax's sum after
the matmul (the speed-up is the benchmark's, docs/performance.md). Here: jax's attention, with
the weights on either side of the dot and a causal mask of -inf, is rewritten and still gives
numpy's values; f64 keeps f64 accuracy. (The cpu pipeline runs the pass after
shlo-expand-f64-math, which has written f64 exp out by then: f64 softmax stays as it is there.
The tests compile the rewritten module.)"""
import numpy as np

import shlo
from shlo.passes.base import nested_ops
from shlo.passes.dispatch.defer_softmax_division import DeferSoftmaxDivision


def dot_operand_producers(module) -> list[str]:
    """The ops that make the operands of every dot_general in `module`."""
    return [v.owner.name for dot in nested_ops(module.operation, "stablehlo.dot_general")
            for v in dot.operands if hasattr(v.owner, "name")]


def softmax(s, axis):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def rewritten_and_compiled(ctx, text):
    module = shlo.parse_module(text, context=ctx)
    DeferSoftmaxDivision().apply(module)
    assert "stablehlo.divide" not in dot_operand_producers(module)
    assert "stablehlo.exponential" in dot_operand_producers(module)
    return shlo.compile(module, target="cpu")


def test_jax_attention_with_a_causal_mask(ctx):
    import jax
    import jax.numpy as jnp

    def attention(q, k, v):
        s = jnp.einsum("hqd,hkd->hqk", q, k) * 3.0
        s = jnp.where(jnp.tril(jnp.ones(s.shape[1:], bool)), s, -jnp.inf)
        return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), v)

    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((3, 40, 16)).astype(np.float32) for _ in range(3))
    exe = rewritten_and_compiled(ctx, jax.jit(attention).lower(q, k, v).as_text())
    q64, k64 = q.astype(np.float64), k.astype(np.float64)
    s = np.einsum("hqd,hkd->hqk", q64, k64) * 3.0
    s = np.where(np.tril(np.ones(s.shape[1:], bool)), s, -np.inf)   # logits up to +-60
    want = np.einsum("hqk,hkd->hqd", softmax(s, -1), v.astype(np.float64))
    np.testing.assert_allclose(exe(q, k, v), want, rtol=2e-5, atol=2e-6)


def test_jax_dot_product_attention(ctx):
    """jax.nn.dot_product_attention takes the row max before a transpose, the exp after it."""
    import jax

    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((2, 24, 3, 8)).astype(np.float32) for _ in range(3))
    fn = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True))
    exe = rewritten_and_compiled(ctx, fn.lower(q, k, v).as_text())
    s = np.einsum("bthd,bshd->bhts", q.astype(np.float64), k.astype(np.float64)) / np.sqrt(8)
    s = np.where(np.tril(np.ones((24, 24), bool)), s, -np.inf)
    want = np.einsum("bhts,bshd->bthd", softmax(s, -1), v.astype(np.float64))
    np.testing.assert_allclose(exe(q, k, v), want, rtol=2e-5, atol=2e-6)


def test_weights_on_the_rhs(ctx):
    import jax
    import jax.numpy as jnp

    def mix(s, v):      # the weights' dim 0 is contracted, dim 1 is a batch dim
        return jnp.einsum("hdk,khq->hdq", v, jax.nn.softmax(s, axis=0))

    rng = np.random.default_rng(1)
    s = (rng.standard_normal((24, 2, 5)) * 4).astype(np.float32)
    v = rng.standard_normal((2, 7, 24)).astype(np.float32)
    exe = rewritten_and_compiled(ctx, jax.jit(mix).lower(s, v).as_text())
    want = np.einsum("hdk,khq->hdq", v.astype(np.float64), softmax(s.astype(np.float64), 0))
    np.testing.assert_allclose(exe(s, v), want, rtol=2e-5, atol=2e-6)


F64 = """func.func @main(%s: tensor<6x2x4xf64>, %v: tensor<2x3x6xf64>) -> tensor<2x3x4xf64> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %0 = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<6x2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<2x4xf64>) -> tensor<6x2x4xf64>
  %2 = stablehlo.subtract %s, %1 : tensor<6x2x4xf64>
  %3 = stablehlo.exponential %2 : tensor<6x2x4xf64>
  %4 = stablehlo.reduce(%3 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<6x2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
  %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<2x4xf64>) -> tensor<6x2x4xf64>
  %6 = stablehlo.divide %3, %5 : tensor<6x2x4xf64>
  %7 = stablehlo.dot_general %v, %6, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<2x3x6xf64>, tensor<6x2x4xf64>) -> tensor<2x3x4xf64>
  return %7 : tensor<2x3x4xf64>
}"""


def test_f64_keeps_f64_accuracy(ctx):
    exe = rewritten_and_compiled(ctx, F64)
    rng = np.random.default_rng(2)
    s, v = rng.standard_normal((6, 2, 4)) * 5, rng.standard_normal((2, 3, 6))
    want = np.einsum("hdk,khq->hdq", v, softmax(s, 0))
    np.testing.assert_allclose(exe(s, v), want, rtol=1e-13, atol=1e-15)
