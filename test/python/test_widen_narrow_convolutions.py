"""shlo-widen-narrow-convolutions on CPU: a bf16 3x3 convolution and an f16 one give the f32
convolution of the same values rounded once (what IREE's bf16 x bf16 -> f32 loop computed);
the cpu pipeline convolves f32 copies."""
import ml_dtypes
import numpy as np
import pytest

import shlo


def _module(element: str) -> str:
    return f"""
func.func @main(%x: tensor<4x16x16x32x{element}>, %w: tensor<3x3x32x32x{element}>) -> tensor<4x16x16x32x{element}> {{
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<4x16x16x32x{element}>, tensor<3x3x32x32x{element}>) -> tensor<4x16x16x32x{element}>
  return %0 : tensor<4x16x16x32x{element}>
}}"""


def _reference(x, w):
    x, w = x.astype(np.float64), w.astype(np.float64)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros(x.shape[:3] + (w.shape[3],))
    for i in range(3):
        for j in range(3):
            out += padded[:, i:i + 16, j:j + 16, :] @ w[i, j]
    return out


@pytest.mark.parametrize("element, dtype", [("bf16", ml_dtypes.bfloat16), ("f16", np.float16)])
@pytest.mark.every_case
def test_matches_the_f32_convolution_rounded(element, dtype):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 16, 16, 32)).astype(dtype)
    w = (rng.standard_normal((3, 3, 32, 32)) * 0.1).astype(dtype)
    got = np.asarray(shlo.compile(_module(element), target="cpu")(x, w), np.float64)
    want = _reference(x, w)
    # one rounding of a sum computed in f32: half an ulp of the type, and f32's sum error
    ulp = 2.0 ** (-8 if element == "bf16" else -11)
    np.testing.assert_allclose(got, want, rtol=ulp, atol=1e-3)


def test_cpu_pipeline_convolves_f32(ctx):
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(_module("bf16"), context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-widen-narrow-convolutions)")
    text = str(module)
    assert "-> tensor<4x16x16x32xf32>" in text and "compute_barrier" in text
