"""shlo-dot-before-broadcast against numpy and XLA: products of operands broadcast along their
free dimensions (a vector repeated over rows, from a size-1 dimension, batched, both sides,
integers) at real sizes on cpu and vulkan, and jax's `broadcast_to(v) @ w`, whose cpu compile
crashed the calling process (SIGSEGV in IREE) before the rewrite."""
import subprocess
import sys

import numpy as np
import pytest

import shlo

MODULE = """
func.func @main(%v: tensor<1024xf32>, %w: tensor<1024x512xf32>, %a: tensor<8x128x256xf32>,
                %u: tensor<8x256x1xf32>, %p: tensor<300xi32>, %q: tensor<300x200xi32>)
    -> (tensor<256x512xf32>, tensor<8x128x96xf32>, tensor<64x48xf32>, tensor<100x200xi32>) {
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<1024xf32>) -> tensor<256x1024xf32>
  %0 = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x512xf32>) -> tensor<256x512xf32>
  %c = stablehlo.broadcast_in_dim %u, dims = [0, 1, 2] : (tensor<8x256x1xf32>) -> tensor<8x256x96xf32>
  %1 = stablehlo.dot_general %a, %c, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x256xf32>, tensor<8x256x96xf32>) -> tensor<8x128x96xf32>
  %vs = stablehlo.slice %v [0:256] : (tensor<1024xf32>) -> tensor<256xf32>
  %l = stablehlo.broadcast_in_dim %vs, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
  %r = stablehlo.broadcast_in_dim %vs, dims = [0] : (tensor<256xf32>) -> tensor<256x48xf32>
  %2 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x48xf32>) -> tensor<64x48xf32>
  %e = stablehlo.broadcast_in_dim %p, dims = [1] : (tensor<300xi32>) -> tensor<100x300xi32>
  %3 = stablehlo.dot_general %e, %q, contracting_dims = [1] x [0] : (tensor<100x300xi32>, tensor<300x200xi32>) -> tensor<100x200xi32>
  return %0, %1, %2, %3 : tensor<256x512xf32>, tensor<8x128x96xf32>, tensor<64x48xf32>, tensor<100x200xi32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_products_of_broadcast_operands_match_numpy(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(11)
    v, w = rng.standard_normal(1024), rng.standard_normal((1024, 512))
    a, u = rng.standard_normal((8, 128, 256)), rng.standard_normal((8, 256, 1))
    p, q = rng.integers(-100, 100, 300), rng.integers(-100, 100, (300, 200))
    args = [x.astype(np.float32) for x in (v, w, a, u)] + [p.astype(np.int32), q.astype(np.int32)]
    v, w, a, u = (x.astype(np.float32).astype(np.float64) for x in (v, w, a, u))
    got = shlo.compile(MODULE, target=target)(*args)
    want = [np.broadcast_to(v @ w, (256, 512)), np.broadcast_to(a @ u, (8, 128, 96)),
            np.full((64, 48), v[:256] @ v[:256]), np.broadcast_to(p @ q, (100, 200))]
    for g, x, scale in zip(got, want, (np.abs(v) @ np.abs(w), np.abs(a) @ np.abs(u),
                                       np.abs(v[:256]) @ np.abs(v[:256]), 0)):
        assert g.shape == x.shape
        np.testing.assert_allclose(g, x, rtol=0, atol=np.max(scale) * 1e-5)


def test_the_product_reads_the_unbroadcast_operands(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(MODULE, context=ctx)
    run_pipeline(module, "builtin.module(shlo-dot-before-broadcast)")
    text = str(module)
    for product in ("(tensor<1024xf32>, tensor<1024x512xf32>) -> tensor<512xf32>",
                    "(tensor<8x128x256xf32>, tensor<8x256xf32>) -> tensor<8x128xf32>",
                    "(tensor<256xf32>, tensor<256xf32>) -> tensor<f32>",
                    "(tensor<300xi32>, tensor<300x200xi32>) -> tensor<200xi32>"):
        assert product in text, product


JAX_PROGRAM = """
import jax.numpy as jnp, numpy as np, shlo, shlo.jax
for dtype in (np.float32, np.float16):
    f = shlo.jax.jit(lambda v, b: jnp.broadcast_to(v, (64, 256)) @ b, target="cpu")
    v = np.random.default_rng(1).standard_normal(256).astype(dtype)
    b = np.random.default_rng(2).standard_normal((256, 128)).astype(dtype)
    got = np.asarray(f(v, b), np.float64)
    want = np.broadcast_to(v.astype(np.float64) @ b.astype(np.float64), (64, 128))
    np.testing.assert_allclose(got, want, rtol=0, atol=3e-2 if dtype == np.float16 else 1e-4)
print("agree")
"""


def test_jax_broadcast_to_then_matmul_on_the_cpu():
    """`jnp.broadcast_to(v, (m, k)) @ w` through shlo.jax.jit in a child process: IREE's
    data-tiled cpu compile of it crashed (rc -11) the process before the rewrite."""
    pytest.importorskip("jax")
    done = subprocess.run([sys.executable, "-c", JAX_PROGRAM], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and "agree" in done.stdout, \
        (done.returncode, done.stderr[-2000:])
