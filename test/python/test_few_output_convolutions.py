"""shlo-few-output-convolutions on CPU against XLA: weight gradients of conv layers (jax's
convolution of the input with the output gradient: 3x3 outputs, 16x16 to 32x32 windows,
stride 1 and 2, padded, bf16), and a 1-D convolution with few outputs; forward convolutions
(many outputs, small windows) keep their convolution."""
import re

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
    assert stacked.count("stablehlo.dot_general") == 1 and "-> tensor<9x3x32xf32>" in stacked
    assert apart.count("stablehlo.dot_general") == 9


# Weight gradients as jax writes them for a stride-2 layer (the input's channels as the batch,
# its examples as the features, the output gradient as the window, dilated by 2): 3x3 output
# positions (padded) and 2x2 (vk-few-output-convolution's too), 512K input elements.
_GRADIENT = """func.func @{name}(%x: tensor<8x64x64x16xf32>, %dy: tensor<8x32x32x32xf32>) -> tensor<{n}x{n}x16x32xf32> {{
  %r = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {{stride = [1, 1], pad = [[0, {pad}], [0, {pad}]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<8x64x64x16xf32>, tensor<8x32x32x32xf32>) -> tensor<{n}x{n}x16x32xf32>
  return %r : tensor<{n}x{n}x16x32xf32>
}}"""
GRADIENTS = {"three": (3, 1), "two": (2, 0)}      # name: (output positions a side, padding)
TEXT = "\n".join(_GRADIENT.format(name=k, n=n, pad=pad) for k, (n, pad) in GRADIENTS.items())


def _gradient_oracle(x, dy, n, pad):
    xp = np.pad(x, ((0, 0), (0, pad), (0, pad), (0, 0))).astype(np.float64)
    return np.array([[np.einsum("nhwc,nhwo->co", xp[:, p:p + 63:2, q:q + 63:2], dy)
                      for q in range(n)] for p in range(n)])


def test_the_input_is_relaid_once(ctx):
    """One transpose of the input (the output gradient is read in its own layout), no strided
    slice, and a fusion barrier per first-dimension position, whose windows IREE then reads
    at a buffer offset."""
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(TEXT, context=ctx)
    run_pipeline(module.operation, "builtin.module(shlo-few-output-convolutions)")
    for func in module.body.operations:
        text = str(func)
        assert "stablehlo.convolution" not in text and text.count("stablehlo.transpose") == 1
        n = GRADIENTS[func.attributes["sym_name"].value][0]
        assert text.count("stablehlo.dot_general") == n * n
        assert text.count("iree_tensor_ext.compute_barrier.start") == n
        assert len(list(func.regions[0].blocks[0].arguments[0].uses)) == 1   # the relayout
    assert not re.search(r"stablehlo\.slice [^\n]*:\d+:\d+", str(module))     # unit steps


def test_a_row_of_windows_shares_an_executable():
    """The 9 windows of a 3x3 weight gradient need fewer than 9 executables (each strided
    slice of the input had its own)."""
    from shlo.tools.bench_models import executable_count
    exe = shlo.compile(_GRADIENT.format(name="main", n=3, pad=1), target="cpu")
    assert executable_count(exe.vmfb) < 9


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_relaid_weight_gradients_match_numpy(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile(TEXT, target=target)
    rng = np.random.default_rng(36)
    x = rng.integers(-3, 4, (8, 64, 64, 16)).astype(np.float32)       # exact sums
    dy = rng.integers(-3, 4, (8, 32, 32, 32)).astype(np.float32)
    for name, (n, pad) in GRADIENTS.items():
        np.testing.assert_array_equal(np.asarray(exe.function(name)(x, dy)),
                                      _gradient_oracle(x, dy, n, pad))
