"""vk-single-window: a reduce_window with one window along each dimension it spans (a window
over all of a padded i32[1, 1], seed 57 program 673) failed to compile on vulkan, also without
shlo's passes ('failed to legalize operation memref.copy'); as a reduce of the window's slice,
against the reference interpreter (small) and numpy (196608 elements), on cpu (with the
Vulkan rewrites) and vulkan."""
import numpy as np
import pytest

from conftest import compile_with_vulkan_rules


def _window(name, shape, element, op, init, window, strides=None, padding=None, base=None,
            dilation=None):
    out = [((n - 1) * b + 1 + lo + hi - ((w - 1) * d + 1)) // s + 1 for n, w, s, (lo, hi), b, d
           in zip(shape, window, strides or [1] * len(shape), padding or [(0, 0)] * len(shape),
                  base or [1] * len(shape), dilation or [1] * len(shape))]
    t = "x".join(map(str, shape)) + "x" + element
    r = "x".join(map(str, out)) + "x" + element
    attrs = [f"window_dimensions = array<i64: {', '.join(map(str, window))}>"]
    if strides:
        attrs.append(f"window_strides = array<i64: {', '.join(map(str, strides))}>")
    if base:
        attrs.append(f"base_dilations = array<i64: {', '.join(map(str, base))}>")
    if dilation:
        attrs.append(f"window_dilations = array<i64: {', '.join(map(str, dilation))}>")
    if padding:
        attrs.append(f"padding = dense<{[list(p) for p in padding]}> : tensor<{len(shape)}x2xi64>")
    return f"""
func.func @{name}(%x: tensor<{t}>) -> tensor<{r}> {{
  %c = stablehlo.constant dense<{init}> : tensor<{element}>
  %r = "stablehlo.reduce_window"(%x, %c) <{{{", ".join(attrs)}}}> ({{
  ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
    %s = stablehlo.{op} %a, %b : tensor<{element}>
    stablehlo.return %s : tensor<{element}>
  }}) : (tensor<{t}>, tensor<{element}>) -> tensor<{r}>
  return %r : tensor<{r}>
}}"""


SMALL = {  # checked against the reference interpreter
    "sum_1x1": _window("sum_1x1", (1, 1), "i32", "add", "0", (4, 2), (2, 1),
                       [(2, 1), (0, 1)]),
    "max_3x3": _window("max_3x3", (3, 3), "f32", "maximum", "0xFF800000", (4, 4),
                       padding=[(1, 0), (1, 0)]),
    "sum_dilated": _window("sum_dilated", (2, 3), "f32", "add", "1.5", (1, 3), padding=[(0, 0),
                           (1, 1)], base=(1, 2), dilation=(1, 3)),
    "max_u32_strided": _window("max_u32_strided", (1, 1, 3), "ui32", "maximum", "0", (2, 1, 4),
                               (1, 2, 1), [(0, 1), (0, 0), (1, 0)]),     # seed 64 program 141
}
LARGE = {  # checked against numpy
    "max_rows": _window("max_rows", (256, 256, 3), "f32", "maximum", "0xFF800000", (1, 1, 4),
                        padding=[(0, 0), (0, 0), (1, 0)]),
    "sum_strided": _window("sum_strided", (4096, 5), "f32", "add", "0.0", (1, 3),
                           dilation=(1, 2)),
    "min_every_other_row": _window("min_every_other_row", (4096, 3, 16), "i32", "minimum",
                                   "2147483647", (1, 1, 17), (2, 1, 1), [(0, 0), (0, 0), (1, 0)]),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_single_windows(ctx, target):
    text = "".join([*SMALL.values(), *LARGE.values()])
    exe = compile_with_vulkan_rules(ctx, text, target)
    from reference_oracle import evaluate
    rng = np.random.default_rng(0)
    args = {"sum_1x1": rng.integers(-9, 9, (1, 1)).astype(np.int32),
            "max_3x3": rng.standard_normal((3, 3)).astype(np.float32),
            "sum_dilated": rng.integers(-9, 9, (2, 3)).astype(np.float32),
            "max_u32_strided": rng.integers(0, 2 ** 32, (1, 1, 3)).astype(np.uint32)}
    for name, text in SMALL.items():
        want = evaluate(text, [args[name]])[0]
        np.testing.assert_array_equal(np.asarray(exe.function(name)(args[name])), want, name)
    x = rng.standard_normal((256, 256, 3)).astype(np.float32)
    np.testing.assert_array_equal(exe.function("max_rows")(x), x.max(axis=2, keepdims=True))
    y = rng.integers(-1000, 1000, (4096, 5)).astype(np.float32)
    np.testing.assert_array_equal(exe.function("sum_strided")(y), y[:, ::2].sum(1, keepdims=True))
    z = rng.integers(-2 ** 31, 2 ** 31, (4096, 3, 16)).astype(np.int32)     # strided rows
    np.testing.assert_array_equal(exe.function("min_every_other_row")(z),
                                  z[::2].min(axis=2, keepdims=True))
