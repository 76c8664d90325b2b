"""shlo-legalize-gpu-ops: NaN-propagating max/min (IREE's CUDA and ROCm code drops NaNs), a
gather from a matrix column and a sum of negated values (both fail to compile for CUDA).

The CPU runs the pass explicitly, so the rewritten IR is checked against numpy here; the CUDA
target must get the pass from its default pipeline, and its compiles are checked on any
machine (no GPU needed). test_runtime_cuda.py runs the NaN cases on a GPU."""
import numpy as np
import pytest

import shlo
from shlo.pipelines import default_pipeline
from shlo.passes.pipeline import run_pipeline
from shlo.pipelines.targets import get_target

from test_runtime_cuda import NAN_PROGRAM, nan_inputs


def test_cuda_and_hip_pipelines_have_the_pass():
    for target in ("cuda:sm_80", "cuda:sm_90a", "hip"):
        assert "shlo-legalize-gpu-ops" in get_target(target).passes
    assert "shlo-legalize-gpu-ops" not in get_target("cpu").passes


def test_rewritten_max_min_keep_the_spec_semantics(ctx):
    """NaN wherever an operand is NaN; -0 < +0; windows and reductions included."""
    a, b, want = nan_inputs()
    exe = shlo.compile(shlo.parse_module(NAN_PROGRAM, context=ctx), target="cpu",
                       pipeline=default_pipeline(["shlo-legalize-gpu-ops"]))
    got = exe(a, b)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def test_max_min_are_guarded_in_the_cuda_pipeline(ctx):
    module = shlo.parse_module(NAN_PROGRAM, context=ctx)
    run_pipeline(module, default_pipeline(get_target("cuda").passes))
    text = str(module)
    # x != x once per tested value (cse shares them), or-ed per op and per reduction
    assert text.count("stablehlo.compare NE") >= 3 and text.count("stablehlo.or") >= 4, text


GATHER_FROM_COLUMN = """
func.func @main(%a: tensor<16x16xf32>, %p: tensor<16xi32>) -> tensor<16xf32> {
  %c = stablehlo.slice %a [0:16, 0:1] : (tensor<16x16xf32>) -> tensor<16x1xf32>
  %v = stablehlo.reshape %c : (tensor<16x1xf32>) -> tensor<16xf32>
  %i = stablehlo.reshape %p : (tensor<16xi32>) -> tensor<16x1xi32>
  %g = "stablehlo.gather"(%v, %i) {dimension_numbers = #stablehlo.gather<
         collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
       slice_sizes = array<i64: 1>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
  return %g : tensor<16xf32>
}
"""

SUM_OF_NEGATED = """
func.func @main(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %n = stablehlo.negate %x : tensor<8x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%n init: %z) applies stablehlo.add across dimensions = [1]
       : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
"""

# jax's lax.cummax: the NaN flags of a cumulative window (an i1 `or` window there failed to
# compile: "'arith.ori' op requires the same type for all operands and results")
CUMMAX = """
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 64>, padding = dense<[[63, 0]]> : tensor<1x2xi64>}
     : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
"""


@pytest.mark.parametrize("text", [GATHER_FROM_COLUMN, SUM_OF_NEGATED, CUMMAX],
                         ids=["gather", "negsum", "cummax"])
def test_compiles_for_cuda(ctx, text):
    """Without the pass: 'LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast' (gather), 'failed to get neutral element for
    reduction' (sum)."""
    shlo.compile(shlo.parse_module(text, context=ctx), target="cuda:sm_90a", cache=False)


def test_gather_and_sum_rewrites_on_cpu(ctx):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((16, 16)).astype(np.float32)
    p = rng.permutation(16).astype(np.int32)
    pipeline = default_pipeline(["shlo-legalize-gpu-ops"])
    got = shlo.compile(shlo.parse_module(GATHER_FROM_COLUMN, context=ctx), target="cpu",
                       pipeline=pipeline)(a, p)
    np.testing.assert_array_equal(got, a[:, 0][p])
    x = rng.standard_normal((8, 32)).astype(np.float32)
    got = shlo.compile(shlo.parse_module(SUM_OF_NEGATED, context=ctx), target="cpu",
                       pipeline=pipeline)(x)
    np.testing.assert_allclose(got, -x.astype(np.float64).sum(1), rtol=1e-5, atol=1e-6)
    x = rng.standard_normal(64).astype(np.float32)
    x[9] = np.nan
    got = shlo.compile(shlo.parse_module(CUMMAX, context=ctx), target="cpu",
                       pipeline=pipeline)(x)
    np.testing.assert_array_equal(got, np.maximum.accumulate(x))     # NaN from index 9 on
