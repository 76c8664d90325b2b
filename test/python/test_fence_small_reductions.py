"""shlo-fence-small-reductions on CPU against numpy: batch-norm's backward shape (column sums
of a [16384, 32] gradient read back by the 524288-element input gradient) gives numpy's values;
the sums go behind a fence, small reduces and reduces only small ops read do not."""
import numpy as np

import shlo

MODULE = """
func.func @main(%g: tensor<16384x32xf32>, %x: tensor<16384x32xf32>, %s: tensor<32xf32>)
    -> (tensor<16384x32xf32>, tensor<32xf32>, tensor<4xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [0] : (tensor<16384x32xf32>, tensor<f32>) -> tensor<32xf32>
  %sum1 = stablehlo.reshape %sum : (tensor<32xf32>) -> tensor<1x32xf32>
  %b = stablehlo.broadcast_in_dim %sum1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16384x32xf32>
  %p = stablehlo.multiply %x, %b : tensor<16384x32xf32>
  %dx = stablehlo.subtract %g, %p : tensor<16384x32xf32>
  %sq = stablehlo.multiply %x, %x : tensor<16384x32xf32>
  %ss = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0] : (tensor<16384x32xf32>, tensor<f32>) -> tensor<32xf32>
  %out = stablehlo.multiply %ss, %s : tensor<32xf32>
  %few = stablehlo.slice %s [0:4] : (tensor<32xf32>) -> tensor<4xf32>
  %r = stablehlo.reduce(%few init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<4xf32>
  return %dx, %out, %rb : tensor<16384x32xf32>, tensor<32xf32>, tensor<4xf32>
}"""


def test_matches_numpy():
    rng = np.random.default_rng(6)
    g, x = (rng.standard_normal((16384, 32)).astype(np.float32) for _ in range(2))
    s = rng.standard_normal(32).astype(np.float32)
    dx, out, rb = shlo.compile(MODULE, target="cpu")(g, x, s)
    g64, x64 = g.astype(np.float64), x.astype(np.float64)
    np.testing.assert_allclose(dx, g64 - x64 * g64.sum(0), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(out, (x64 * x64).sum(0) * s, rtol=1e-4)
    np.testing.assert_allclose(rb, np.full(4, s[:4].astype(np.float64).sum()), rtol=1e-5)


def test_fences_only_the_large_consumers_reduce(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(MODULE, context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-fence-small-reductions)")
    assert str(module).count("compute_barrier") == 1


def test_a_split_sum_is_fenced_after_its_second_stage(ctx):
    """shlo-split-long-reduce cuts the column sums in two stages; the fence goes after the
    second, whose input is the first's few partial sums."""
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(MODULE, context=ctx)
    run_pipeline(module.operation,
                 "builtin.module(shlo-split-long-reduce,shlo-fence-small-reductions)")
    text = str(module)
    assert text.count("stablehlo.reduce") == 5 and text.count("compute_barrier") == 1
    fenced = text[text.index("compute_barrier") - 400:text.index("compute_barrier")]
    assert "tensor<64x32xf32>, tensor<f32>) -> tensor<32xf32>" in fenced


def test_unsigned_sums_are_fenced_in_order():
    """A fence of an unsigned result is bitcasts around the barrier, all after the reduce."""
    module = """
func.func @main(%x: tensor<16384x32xui32>) -> tensor<16384x32xui32> {
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<16384x32xui32>, tensor<ui32>) -> tensor<32xui32>
  %b = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<32xui32>) -> tensor<16384x32xui32>
  %d = stablehlo.subtract %x, %b : tensor<16384x32xui32>
  return %d : tensor<16384x32xui32>
}"""
    x = np.random.default_rng(8).integers(0, 1000, (16384, 32)).astype(np.uint32)
    got = shlo.compile(module, target="cpu")(x)
    np.testing.assert_array_equal(got, x - x.sum(0, dtype=np.uint32))


PRODUCT_SUM = """
func.func @main(%x: tensor<16x32x32x32xf32>, %y: tensor<16x32x32x32xf32>) -> tensor<32xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.multiply %x, %y : tensor<16x32x32x32xf32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x32x32x32xf32>, tensor<f32>) -> tensor<32xf32>
  return %s : tensor<32xf32>
}"""


def test_column_sums_of_products_match_numpy():
    """Batch norm's backward sum of x * dy over N, H, W (read as x * y + 0.0): numpy's sums
    from +0.0, also for a column of -0.0 products (+0.0), an inf one and a NaN one."""
    rng = np.random.default_rng(9)
    x, y = (rng.standard_normal((16, 32, 32, 32)).astype(np.float32) for _ in range(2))
    x[..., 0], y[..., 0] = -0.0, 1.0
    x[3, 4, 5, 1], y[3, 4, 5, 1] = np.inf, 1.0
    x[3, 4, 5, 2], y[3, 4, 5, 2] = np.inf, 0.0
    got = shlo.compile(PRODUCT_SUM, target="cpu")(x, y)
    want = np.add.reduce((x.astype(np.float64) * y).reshape(-1, 32), axis=0, initial=0.0)
    np.testing.assert_allclose(got[3:], want[3:], rtol=1e-4, atol=1e-3)
    assert got[0] == 0.0 and not np.signbit(got[0])
    assert got[1] == np.inf and np.isnan(got[2])


def test_column_sums_read_products_plus_zero(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(PRODUCT_SUM, context=ctx)
    run_pipeline(module.operation,
                 "builtin.module(shlo-split-long-reduce,shlo-fence-small-reductions)")
    text = str(module)
    assert text.count("stablehlo.add %") == 1 and "dense<0.000000e+00> : tensor<16x32x32x32xf32>" in text
    module = shlo.parse_module(PRODUCT_SUM.replace("dense<0.0>", "dense<-0.0>"), context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-fence-small-reductions)")
    assert "stablehlo.add %" not in str(module)      # a sum from -0.0 keeps its products
    # a product with a broadcast factor (n-body's sum(d * w[..., None], 1)) is a matvec
    matvec = PRODUCT_SUM.replace(
        "%p = stablehlo.multiply %x, %y",
        "%w = stablehlo.slice %y [0:16, 0:32, 0:32, 0:1] : (tensor<16x32x32x32xf32>) -> tensor<16x32x32x1xf32>\n"
        "  %r = stablehlo.reshape %w : (tensor<16x32x32x1xf32>) -> tensor<16x32x32xf32>\n"
        "  %b = stablehlo.broadcast_in_dim %r, dims = [0, 1, 2] : (tensor<16x32x32xf32>) -> tensor<16x32x32x32xf32>\n"
        "  %p = stablehlo.multiply %x, %b")
    module = shlo.parse_module(matvec, context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-fence-small-reductions)")
    assert "stablehlo.add %" not in str(module)


def test_a_cumulative_sum_of_products_is_left_alone():
    """A reduce_window (jnp.cumsum of a product) is no reduce: it compiles and matches numpy."""
    module = """
func.func @main(%x: tensor<256x512xf32>, %y: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.multiply %x, %y : tensor<256x512xf32>
  %c = "stablehlo.reduce_window"(%p, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 256, 1>, padding = dense<[[255, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<256x512xf32>, tensor<f32>) -> tensor<256x512xf32>
  return %c : tensor<256x512xf32>
}"""
    rng = np.random.default_rng(10)
    x, y = (rng.standard_normal((256, 512)).astype(np.float32) for _ in range(2))
    got = shlo.compile(module, target="cpu")(x, y)
    np.testing.assert_allclose(got, np.cumsum(x.astype(np.float64) * y, axis=0), rtol=1e-4,
                               atol=1e-3)
