"""shlo-expand-complex-pad (and complex reduce_window padding): IREE 3.13's compiler crashes
on a complex pad without interior padding and on a padded complex reduce_window; with the
parts padded separately they compile and match numpy on CPU and Vulkan. jnp.sort of complex
values (padded to a power of two by shlo-lower-sort) matches XLA. One module per target."""
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

T = "tensor<4x6xcomplex<f32>>"
BODY = """({
    ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
      %s = stablehlo.OP %a, %b : tensor<complex<f32>>
      stablehlo.return %s : tensor<complex<f32>>
  })"""
# name -> (low, high, interior) of a pad with value (1, -2)
PADS = {"edges": ([1, 0], [0, 2], [0, 0]), "interior": ([0, 1], [2, 0], [1, 2]),
        "negative": ([-1, 2], [1, -3], [0, 0])}
# name -> (window, padding, op) of a reduce_window, stride 1 (init: 0 for add, 1 for multiply)
WINDOWS = {"rows": ([2, 1], [[1, 0], [0, 0]], "add"), "both": ([2, 2], [[1, 0], [0, 1]], "add"),
           "scan": ([4, 1], [[3, 0], [0, 0]], "add"),
           "product": ([2, 2], [[1, 0], [0, 1]], "multiply")}


def _pad_shape(low, high, interior):
    return [n + lo + hi + max(n - 1, 0) * i for n, lo, hi, i in zip((4, 6), low, high, interior)]


def _text():
    out = []
    for name, (low, high, interior) in PADS.items():
        r = f"tensor<{'x'.join(map(str, _pad_shape(low, high, interior)))}xcomplex<f32>>"
        out.append(f"""func.func @pad_{name}(%x: {T}) -> {r} {{
  %c = stablehlo.constant dense<(1.0,-2.0)> : tensor<complex<f32>>
  %r = stablehlo.pad %x, %c, low = {low}, high = {high}, interior = {interior} : ({T}, tensor<complex<f32>>) -> {r}
  return %r : {r}
}}""")
    for name, (window, padding, op) in WINDOWS.items():
        shape = [n + p[0] + p[1] - w + 1 for n, p, w in zip((4, 6), padding, window)]
        r = f"tensor<{'x'.join(map(str, shape))}xcomplex<f32>>"
        init = "(0.0,0.0)" if op == "add" else "(1.0,0.0)"
        out.append(f"""func.func @window_{name}(%x: {T}) -> {r} {{
  %c = stablehlo.constant dense<{init}> : tensor<complex<f32>>
  %r = "stablehlo.reduce_window"(%x, %c) <{{window_dimensions = array<i64: {window[0]}, {window[1]}>, padding = dense<{padding}> : tensor<2x2xi64>}}> {BODY.replace("OP", op)} : ({T}, tensor<complex<f32>>) -> {r}
  return %r : {r}
}}""")
    return "\n".join(out)


X = (np.arange(24).reshape(4, 6) + 1j * (np.arange(24).reshape(4, 6) % 5 - 2)).astype(np.complex64)


def _numpy_pad(x, value, low, high, interior):
    shape = [n + max(n - 1, 0) * i for n, i in zip(x.shape, interior)]
    dilated = np.full(shape, value, x.dtype)
    dilated[tuple(slice(None, None, i + 1) for i in interior)] = x
    widened = np.pad(dilated, [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high)],
                     constant_values=value)
    return widened[tuple(slice(-min(lo, 0), widened.shape[d] + min(hi, 0))
                         for d, (lo, hi) in enumerate(zip(low, high)))]


def _numpy_window(x, window, padding, op):
    fold, init = (np.sum, 0) if op == "add" else (np.prod, 1)
    padded = np.pad(x, padding, constant_values=init)
    rows, cols = padded.shape[0] - window[0] + 1, padded.shape[1] - window[1] + 1
    return np.array([[fold(padded[i:i + window[0], j:j + window[1]]) for j in range(cols)]
                     for i in range(rows)], x.dtype)


def _check(exe):
    for name, args in PADS.items():
        np.testing.assert_array_equal(exe.function(f"pad_{name}")(X),
                                      _numpy_pad(X, np.complex64(1 - 2j), *args), err_msg=name)
    for name, (window, padding, op) in WINDOWS.items():
        np.testing.assert_allclose(exe.function(f"window_{name}")(X),
                                   _numpy_window(X, window, padding, op), rtol=1e-6,
                                   err_msg=name)


def test_cpu(ctx):
    _check(shlo.compile(shlo.parse_module(_text(), context=ctx), target="cpu"))


def test_vulkan(ctx):
    vulkan_or_skip()
    _check(shlo.compile(shlo.parse_module(_text(), context=ctx), target="vulkan"))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.every_case
def test_jax_sort_of_complex_matches_xla(dtype):
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    rng = np.random.default_rng(3)
    x = (rng.integers(-2, 3, 11) + 1j * rng.integers(-2, 3, 11)).astype(dtype)
    sort = jax.jit(lambda v: jnp.sort(v))
    with jax.enable_x64(True):
        text, want = sort.lower(x).as_text(), np.asarray(sort(x))
    np.testing.assert_array_equal(shlo.compile(text, target="cpu")(x), want)
