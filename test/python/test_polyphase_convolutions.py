"""shlo-polyphase-convolutions on CPU against a numpy oracle that dilates the input with zeros
as the spec does: 1-D and 2-D, dilation 2 and 3, phases without taps, one-tap phases (matmuls),
cropped and padded inputs, a cnn_train-sized stride-2 input gradient; the cpu pipeline rewrites
them all; a kernel's inf gives XLA's values (no 0 * inf)."""
import itertools

import numpy as np
import pytest

import shlo

CASES = {   # name -> (input [N, spatial..., C], kernel [spatial..., C, O], dilation, padding)
    "grad_3x3": ([2, 4, 4, 8], [3, 3, 8, 5], [2, 2], [[1, 2], [1, 2]]),
    "dilation_3": ([3, 5, 4], [4, 4, 6], [3], [[2, 3]]),
    "tapless_phase": ([2, 4, 3], [1, 3, 2], [2], [[0, 1]]),
    "mixed_2_3": ([2, 5, 5, 3], [2, 3, 3, 4], [2, 3], [[1, 1], [2, 2]]),
    "one_dilated_dim": ([2, 6, 7, 3], [3, 3, 3, 4], [1, 2], [[2, 2], [1, 2]]),
    "wide_padding": ([1, 3, 2], [5, 2, 2], [2], [[4, 5]]),
    "cnn_train_layer3": ([16, 8, 8, 64], [3, 3, 64, 32], [2, 2], [[1, 2], [1, 2]]),
}


def _type(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _output(xs, ws, dilation, padding) -> list[int]:
    return [xs[0], *((xs[1 + i] - 1) * d + 1 + sum(padding[i]) - ws[i] + 1
                     for i, d in enumerate(dilation)), ws[-1]]


def _function(name, xs, ws, dilation, padding) -> str:
    n = len(dilation)
    spatial = ", ".join(map(str, range(n)))
    out = _type(_output(xs, ws, dilation, padding))
    return f"""
func.func @{name}(%x: {_type(xs)}, %w: {_type(ws)}) -> {out} {{
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, {spatial}, f]x[{spatial}, i, o]->[b, {spatial}, f], window = {{stride = [{", ".join(["1"] * n)}], pad = [{", ".join(f"[{a}, {b}]" for a, b in padding)}], lhs_dilate = [{", ".join(map(str, dilation))}]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({_type(xs)}, {_type(ws)}) -> {out}
  return %0 : {out}
}}"""


SOURCE = "".join(_function(name, *case) for name, case in CASES.items())


def _oracle(x, w, dilation, padding):
    """The spec's convolution in float64: the input dilated with zeros, padded, correlated."""
    n = len(dilation)
    shape = [x.shape[0], *((s - 1) * d + 1 for s, d in zip(x.shape[1:-1], dilation)),
             x.shape[-1]]
    xd = np.zeros(shape)
    xd[(slice(None), *(slice(None, None, d) for d in dilation), slice(None))] = x
    xp = np.pad(xd, [(0, 0), *map(tuple, padding), (0, 0)])
    taps = w.shape[:n]
    out = [xp.shape[1 + i] - taps[i] + 1 for i in range(n)]
    result = np.zeros([x.shape[0], *out, w.shape[-1]])
    for t in itertools.product(*(range(k) for k in taps)):
        window = xp[(slice(None), *(slice(t[i], t[i] + out[i]) for i in range(n)), slice(None))]
        result += window @ w[t].astype(np.float64)
    return result


@pytest.fixture(scope="module")
def exe():
    return shlo.compile(SOURCE, target="cpu")


@pytest.mark.parametrize("name", CASES)
@pytest.mark.every_case
def test_matches_the_dilated_convolution(exe, name):
    xs, ws, dilation, padding = CASES[name]
    rng = np.random.default_rng(len(name))
    x, w = (rng.standard_normal(s).astype(np.float32) for s in (xs, ws))
    want = _oracle(x, w, dilation, padding)
    got = exe.function(name)(x, w)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(np.prod(ws[:-1])))


def test_the_cpu_pipeline_rewrites_every_case(ctx):
    from shlo.passes.pipeline import run_pipeline
    from shlo.pipelines.targets import get_target
    assert "shlo-polyphase-convolutions" in get_target("cpu").passes
    module = shlo.parse_module(SOURCE, context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-polyphase-convolutions)")
    text = str(module)
    assert "lhs_dilate = [2" not in text and "lhs_dilate = [1, 2]" not in text
    assert "lhs_dilate = [3" not in text and "stablehlo.dot_general" in text


def test_an_inf_in_the_kernel_meets_no_dilation_zero():
    """XLA computes no product with the dilation's zeros: inf, not the spec's 0 * inf = NaN."""
    jax = pytest.importorskip("jax")
    from jax import lax
    x = np.random.default_rng(1).standard_normal((1, 6, 2)).astype(np.float32)
    w = np.random.default_rng(2).standard_normal((3, 2, 3)).astype(np.float32)
    w[1, 0, 0] = np.inf

    def f(x, w):
        return lax.conv_general_dilated(x, w, (1,), [(1, 2)], lhs_dilation=(2,),
                                         dimension_numbers=("NWC", "WIO", "NWC"))
    want = np.asarray(jax.jit(f)(x, w))
    got = shlo.jax.jit(f, target="cpu")(x, w)
    assert np.isinf(want).any() and not np.isnan(want).any()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
