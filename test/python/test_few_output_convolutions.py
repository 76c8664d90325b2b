"""shlo-few-output-convolutions on CPU against XLA: weight gradients of conv layers (jax's
convolution of the input with the output gradient: 3x3 outputs, 16x16 to 32x32 windows,
stride 1 and 2, padded, bf16), and a 1-D convolution with few outputs; forward convolutions
(many outputs, small windows) keep their convolution."""
import numpy as np
import pytest

import shlo


def _conv(x, w, stride):
    from jax import lax
    spatial = "HW"[:x.ndim - 2]
    return lax.conv_general_dilated(x, w, (stride,) * (x.ndim - 2), "SAME",
                                    dimension_numbers=(f"N{spatial}C", f"{spatial}IO",
                                                       f"N{spatial}C"))


CASES = {   # name: (input shape, kernel shape, stride, dtype)
    "stride1": ((8, 32, 32, 16), (3, 3, 16, 32), 1, np.float32),
    "stride2": ((8, 32, 32, 16), (3, 3, 16, 32), 2, np.float32),
    "first_layer": ((4, 32, 32, 3), (3, 3, 3, 32), 1, np.float32),
    "conv1d": ((4, 64, 8), (5, 8, 16), 2, np.float32),
    "bf16": ((4, 16, 16, 16), (3, 3, 16, 32), 2, "bfloat16"),
}


def _weight_gradient(name):
    import jax
    import ml_dtypes
    xs, ws, stride, dtype = CASES[name]
    dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype
    rng = np.random.default_rng(2)
    x = rng.standard_normal(xs).astype(dtype)
    w = (rng.standard_normal(ws) * 0.1).astype(dtype)
    fn = jax.grad(lambda w, x: (_conv(x, w, stride).astype(np.float32) ** 2).sum())
    return fn, (w, x)


@pytest.mark.parametrize("name", list(CASES))
def test_weight_gradients_match_xla(name):
    import jax
    fn, args = _weight_gradient(name)
    text = jax.jit(fn).lower(*args).as_text()
    got = np.asarray(shlo.compile(text, target="cpu")(*args), np.float64)
    want = np.asarray(jax.jit(fn)(*args), np.float64)
    tol = (2e-2 if name == "bf16" else 1e-5) * np.abs(want).max()
    np.testing.assert_allclose(got, want, atol=tol)


def test_only_weight_gradients_become_matmuls(ctx):
    import jax
    from shlo.passes.pipeline import run_pipeline
    fn, args = _weight_gradient("stride2")
    module = shlo.parse_module(jax.jit(fn).lower(*args).as_text(), context=ctx)
    before = str(module).count("stablehlo.convolution")
    run_pipeline(module.operation, "builtin.module(shlo-few-output-convolutions)")
    # the forward convolution stays; the weight gradient becomes 9 matmuls
    assert before == 2 and str(module).count("stablehlo.convolution") == 1
    assert str(module).count("stablehlo.dot_general") == 9


def test_a_narrow_batch_stacks_its_windows(ctx):
    """A first layer's weight gradient (3 input channels: the matmuls' rows) is one matmul of
    the 9 windows stacked, [27, ...] x [..., 32]; `stack-below=0` keeps 9 matmuls."""
    import jax
    from shlo.passes.pipeline import run_pipeline
    fn, args = _weight_gradient("first_layer")
    text = jax.jit(fn).lower(*args).as_text()
    found = {}
    for pipeline in ("shlo-few-output-convolutions", "shlo-few-output-convolutions{stack-below=0}"):
        module = shlo.parse_module(text, context=ctx)
        run_pipeline(module.operation, f"builtin.module({pipeline})")
        found[pipeline] = str(module)
    stacked, apart = found.values()
    assert stacked.count("stablehlo.dot_general") == 1 and "-> tensor<27x32xf32>" in stacked
    assert apart.count("stablehlo.dot_general") == 9
