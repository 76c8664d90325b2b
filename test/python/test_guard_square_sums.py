"""shlo-guard-square-sums on CPU against numpy: sums of squares through the cpu pipeline (which
reads them through maximum(x * x, 0)) give numpy's values, with NaN, infinities and signed
zeros in the rows."""
import numpy as np

import shlo

MODULE = """
func.func @main(%x: tensor<6x4096xf32>) -> tensor<6xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<6x4096xf32>
  %0 = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<6x4096xf32>, tensor<f32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}"""


def test_sums_of_squares_match_numpy():
    exe = shlo.compile(MODULE, target="cpu")
    x = np.random.default_rng(4).standard_normal((6, 4096)).astype(np.float32)
    x[1, 7] = np.nan
    x[2, 100] = -np.inf
    x[3] = -0.0
    x[4, ::2] = -x[4, ::2]
    got = exe(x)
    want = (x.astype(np.float64) ** 2).sum(axis=1)
    assert np.isnan(got[1]) and got[2] == np.inf
    assert got[3] == 0 and not np.signbit(got[3])
    keep = [0, 4, 5]
    np.testing.assert_allclose(got[keep], want[keep], rtol=1e-5)


def test_the_cpu_pipeline_guards_them(ctx):
    from shlo.passes.pipeline import run_pipeline
    from shlo.pipelines import default_pipeline
    from shlo.pipelines.targets import get_target
    module = shlo.parse_module(MODULE, context=ctx)
    run_pipeline(module.operation, default_pipeline(get_target("cpu").passes))
    assert "stablehlo.maximum" in str(module)
