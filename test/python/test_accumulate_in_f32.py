"""shlo-accumulate-in-f32: bf16/f16 convolutions, batched matmuls (f8 too) and cumulative
sums come out within one unit in the last place of the exact (f64) result, as an f32
accumulator rounded once gives. IREE 3.13 alone accumulated them in the narrow type: thousands of ulps off for
the bf16 convolution. One module per target, CPU and Vulkan."""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

BF16, F16, F8 = ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn
MLIR = {BF16: "bf16", F16: "f16", F8: "f8E4M3FN"}
MANTISSA = {BF16: 8, F16: 11, F8: 4}          # significand bits, the implicit one included


def _t(shape, dtype):
    return f"tensor<{'x'.join(map(str, shape))}x{MLIR[dtype]}>"


def _conv(dtype):
    x, w, r = _t((1, 8, 8, 32), dtype), _t((3, 3, 32, 16), dtype), _t((1, 8, 8, 16), dtype)
    return f"""func.func @conv_{MLIR[dtype]}(%x: {x}, %w: {w}) -> {r} {{
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {r}
  return %r : {r}
}}"""


def _batched_dot(dtype):
    a, b, r = _t((2, 16, 256), dtype), _t((2, 256, 8), dtype), _t((2, 16, 8), dtype)
    return f"""func.func @dot_{MLIR[dtype]}(%a: {a}, %b: {b}) -> {r} {{
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({a}, {b}) -> {r}
  return %r : {r}
}}"""


def _cumsum(dtype):
    x, s = _t((4, 300), dtype), f"tensor<{MLIR[dtype]}>"
    return f"""func.func @cumsum_{MLIR[dtype]}(%x: {x}) -> {x} {{
  %zero = stablehlo.constant dense<0.0> : {s}
  %r = "stablehlo.reduce_window"(%x, %zero) <{{window_dimensions = array<i64: 1, 300>, padding = dense<[[0, 0], [299, 0]]> : tensor<2x2xi64>}}> ({{
    ^bb0(%a: {s}, %b: {s}):
      %s = stablehlo.add %a, %b : {s}
      stablehlo.return %s : {s}
  }}) : ({x}, {s}) -> {x}
  return %r : {x}
}}"""


def _exact_conv(x, w):
    padded = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 8, 8, 16))
    for i in range(3):
        for j in range(3):
            out += padded[:, i:i + 8, j:j + 8, :] @ w[i, j].astype(np.float64)
    return out


def _cases():
    rng = np.random.default_rng(3)
    cases = []
    for dtype in (BF16, F16):
        x = rng.standard_normal((1, 8, 8, 32)).astype(dtype)
        w = rng.standard_normal((3, 3, 32, 16)).astype(dtype)
        cases.append((f"conv_{MLIR[dtype]}", [x, w], _exact_conv(x, w), dtype))
        a = rng.standard_normal((2, 16, 256)).astype(dtype)
        b = rng.standard_normal((2, 256, 8)).astype(dtype)
        cases.append((f"dot_{MLIR[dtype]}", [a, b], a.astype(np.float64) @ b.astype(np.float64),
                      dtype))
        s = rng.standard_normal((4, 300)).astype(dtype)
        cases.append((f"cumsum_{MLIR[dtype]}", [s], np.cumsum(s.astype(np.float64), axis=1),
                      dtype))
    a = rng.standard_normal((2, 16, 256)).astype(F8)
    b = rng.standard_normal((2, 256, 8)).astype(F8)
    cases.append(("dot_f8E4M3FN", [a, b], a.astype(np.float64) @ b.astype(np.float64), F8))
    return cases


TEXT = "\n".join([build(dtype) for dtype in (BF16, F16) for build in (_conv, _batched_dot, _cumsum)]
                  + [_batched_dot(F8)])


def _ulps_off(got, exact, dtype) -> float:
    """The largest distance from the exact value, in units of the last place of `dtype` at
    the exact value's magnitude."""
    mantissa = MANTISSA[dtype]
    exponent = np.floor(np.log2(np.maximum(np.abs(exact), float(ml_dtypes.finfo(dtype).tiny))))
    return float(np.max(np.abs(got.astype(np.float64) - exact) / 2.0 ** (exponent - mantissa + 1)))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_narrow_float_sums_are_rounded_once(target):
    if target == "vulkan":
        vulkan_or_skip()
    exe = shlo.compile(TEXT, target=target)
    for name, args, exact, dtype in _cases():
        got = np.asarray(exe.function(name)(*args))
        assert got.dtype == dtype
        assert _ulps_off(got, exact, dtype) <= 1.0, name

