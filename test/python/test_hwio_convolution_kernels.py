"""shlo-hwio-convolution-kernels on CPU against XLA: input gradients of conv layers (jax's
convolution of the output gradient with the reversed kernel laid out [0, 1, o, i]), stride 1
and 2, 2-D and 1-D; the kernel read through a fenced transpose to [0, 1, i, o]."""
import numpy as np
import pytest

import shlo


def _conv(x, w, stride):
    from jax import lax
    spatial = "HW"[:x.ndim - 2]
    return lax.conv_general_dilated(x, w, (stride,) * (x.ndim - 2), "SAME",
                                    dimension_numbers=(f"N{spatial}C", f"{spatial}IO",
                                                       f"N{spatial}C"))


CASES = {"stride1": ((8, 16, 16, 32), (3, 3, 32, 64), 1),
         "stride2": ((8, 16, 16, 32), (3, 3, 32, 64), 2),
         "conv1d": ((4, 64, 8), (5, 8, 16), 1)}


def _input_gradient(name):
    import jax
    xs, ws, stride = CASES[name]
    rng = np.random.default_rng(4)
    x = rng.standard_normal(xs).astype(np.float32)
    w = (rng.standard_normal(ws) * 0.1).astype(np.float32)
    return jax.grad(lambda x, w: (_conv(x, w, stride) ** 2).sum()), (x, w)


@pytest.mark.parametrize("name", list(CASES))
def test_input_gradients_match_xla(name):
    import jax
    fn, args = _input_gradient(name)
    got = shlo.compile(jax.jit(fn).lower(*args).as_text(), target="cpu")(*args)
    want = np.asarray(jax.jit(fn)(*args))
    np.testing.assert_allclose(got, want, atol=1e-5 * np.abs(want).max())


def test_kernel_is_transposed_behind_a_fence(ctx):
    import jax
    from shlo.passes.pipeline import run_pipeline
    fn, args = _input_gradient("stride1")
    module = shlo.parse_module(jax.jit(fn).lower(*args).as_text(), context=ctx)
    assert "x[0, 1, o, i]" in str(module)
    run_pipeline(module.operation, "builtin.module(shlo-hwio-convolution-kernels)")
    text = str(module)
    assert "x[0, 1, o, i]" not in text and text.count("x[0, 1, i, o]") == 2
    assert "compute_barrier" in text


def test_padded_convolution_of_an_o0i1_kernel_replays():
    """shlo-fuzz seed 180 program 20 on vulkan, against the reference interpreter and XLA: an
    s8 convolution of a 1x1 image (lhs [b, f, 1, 0], dilated [1, 2], padded [[0, 1], [1, 0]])
    with a 2x2 kernel laid out [o, 0, i, 1], reshaped from a padded converted vector, gave 2
    where 1 is right, every run (f32 alike with IREE alone); with the kernel in HWIO
    (shlo-hwio-convolution-kernels, now on Vulkan too) it is right."""
    import os

    from conftest import vulkan_or_skip
    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import InProcess
    vulkan_or_skip()
    here = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions",
                        "padded_convolution_of_oi_kernel_vulkan")
    assert fuzz.replay(here, "vulkan", InProcess()) is None
