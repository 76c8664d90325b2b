"""shlo-swap-transposed-dots and shlo-fence-transposed-dots on CPU against numpy: a weight
gradient written as dot-then-transpose (jax's form) and a dense layer's backward pass with an
update of the weight (dy read as it is and transposed), through the cpu pipeline; the IR after
each pass (the transposes gone, the barriers in place, a transpose that is not a swap kept)."""
import numpy as np
import pytest

import shlo

MODULE = """
func.func @main(%x: tensor<256x96xf32>, %g: tensor<256x64xf32>, %w: tensor<64x96xf32>,
                %a: tensor<4x16x8xf32>, %b: tensor<4x16x12xf32>)
    -> (tensor<256x96xf32>, tensor<64x96xf32>, tensor<4x12x8xf32>, tensor<8x4x12xf32>) {
  %h = stablehlo.tanh %g : tensor<256x64xf32>
  %dy = stablehlo.multiply %h, %g : tensor<256x64xf32>
  %dx = stablehlo.dot_general %dy, %w, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x96xf32>) -> tensor<256x96xf32>
  %dwt = stablehlo.dot_general %x, %dy, contracting_dims = [0] x [0] : (tensor<256x96xf32>, tensor<256x64xf32>) -> tensor<96x64xf32>
  %dw = stablehlo.transpose %dwt, dims = [1, 0] : (tensor<96x64xf32>) -> tensor<64x96xf32>
  %lr = stablehlo.constant dense<0.01> : tensor<64x96xf32>
  %step = stablehlo.multiply %lr, %dw : tensor<64x96xf32>
  %w2 = stablehlo.subtract %w, %step : tensor<64x96xf32>
  %p = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<4x16x8xf32>, tensor<4x16x12xf32>) -> tensor<4x8x12xf32>
  %pt = stablehlo.transpose %p, dims = [0, 2, 1] : (tensor<4x8x12xf32>) -> tensor<4x12x8xf32>
  %q = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<4x16x8xf32>, tensor<4x16x12xf32>) -> tensor<4x8x12xf32>
  %qt = stablehlo.transpose %q, dims = [1, 0, 2] : (tensor<4x8x12xf32>) -> tensor<8x4x12xf32>
  return %dx, %w2, %pt, %qt : tensor<256x96xf32>, tensor<64x96xf32>, tensor<4x12x8xf32>, tensor<8x4x12xf32>
}"""


def _inputs():
    rng = np.random.default_rng(5)
    return [rng.standard_normal(s).astype(np.float32)
            for s in ((256, 96), (256, 64), (64, 96), (4, 16, 8), (4, 16, 12))]


def test_cpu_results_match_numpy():
    x, g, w, a, b = _inputs()
    dx, w2, pt, qt = shlo.compile(MODULE, target="cpu")(x, g, w, a, b)
    dy = np.tanh(g.astype(np.float64)) * g
    np.testing.assert_allclose(dx, dy @ w, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(w2, w - 0.01 * (x.T @ dy).T, rtol=1e-4, atol=1e-3)
    p = np.einsum("bki,bkj->bij", a.astype(np.float64), b)
    np.testing.assert_allclose(pt, p.transpose(0, 2, 1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(qt, p.transpose(1, 0, 2), rtol=1e-4, atol=1e-4)


@pytest.fixture
def rewritten(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(MODULE, context=ctx)
    run_pipeline(module.operation,
                 "builtin.module(shlo-swap-transposed-dots, shlo-fence-transposed-dots)")
    return str(module)


def test_swaps_only_free_dim_swaps(rewritten):
    # the weight gradient and the batched swap lose their transposes; [1, 0, 2] moves the
    # batch dim and stays
    assert rewritten.count("stablehlo.transpose") == 1
    assert "dims = [1, 0, 2]" in rewritten
    assert "(tensor<256x64xf32>, tensor<256x96xf32>) -> tensor<64x96xf32>" in rewritten
    assert "(tensor<4x16x12xf32>, tensor<4x16x8xf32>) -> tensor<4x12x8xf32>" in rewritten


def test_fences_the_shared_operand_and_the_updated_gradient(rewritten):
    # dy (read transposed by the gradient, as it is by dx) and the gradient the update reads;
    # not the batched products (their operands are arguments, their users transposes or
    # results)
    assert rewritten.count("iree_tensor_ext.compute_barrier.start") == 2


def test_training_step_with_a_tied_embedding_compiles_and_matches_xla():
    """The IREE failure the passes route around (at the size it needs: 512 tokens, vocab 512):
    one GELU MLP block, a tied-embedding cross-entropy and Adam; without the passes IREE 3.13
    stopped with 'exceeded stack allocation limit'."""
    import jax
    import jax.numpy as jnp

    import shlo.jax
    from shlo.tools import bench_models as bm
    rng = np.random.default_rng(0)
    p = {"E": bm._normal(rng, 512, 128), "w1": bm._normal(rng, 128, 512, scale=0.1),
         "w2": bm._normal(rng, 512, 128, scale=0.05)}
    h, labels = bm._normal(rng, 512, 128), rng.integers(0, 512, 512).astype(np.int32)
    zeros = jax.tree.map(np.zeros_like, p)

    def step(p, m, v, h, labels):
        def loss(p):
            x = h + jax.nn.gelu(h @ p["w1"]) @ p["w2"]
            return bm._cross_entropy(x @ p["E"].T, labels)
        value, grads = jax.value_and_grad(loss)(p)
        return (value, *bm._adam(p, grads, m, v, jnp.int32(0))[:3])

    got = jax.tree.leaves(shlo.jax.jit(step)(p, zeros, zeros, h, labels))
    want = jax.tree.leaves(jax.jit(step)(p, zeros, zeros, h, labels))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-3, atol=1e-4)
