"""shlo-round-narrow-float-converts: conversions to every f8 type and f4E2M1FN, from f32, f64,
f16 and bf16, equal ml_dtypes' round-to-nearest-even on a dense sweep that crosses every
binade, the subnormal range and the boundary below the smallest normal (where IREE alone
returns 0), on CPU and Vulkan. One module per target."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

TARGETS = {"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
           "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz, "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
           "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz, "f8E3M4": ml_dtypes.float8_e3m4,
           "f8E4M3": ml_dtypes.float8_e4m3, "f4E2M1FN": ml_dtypes.float4_e2m1fn}
SOURCES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
CASES = [(s, t) for s in SOURCES for t in TARGETS]
N = 4096


def _sweep(target) -> np.ndarray:
    """Magnitudes from a quarter of the smallest subnormal to twice the largest value, with
    every exact tie between neighbours, both signs."""
    info = ml_dtypes.finfo(target)
    values = np.unique(np.arange(256, dtype=np.uint8).view(target).astype(np.float64))
    values = values[np.isfinite(values) & (values >= 0)]
    ties = (values[1:] + values[:-1]) / 2
    dense = np.geomspace(float(info.smallest_subnormal) / 4, float(info.max) * 0.99, N // 2
                         - values.size - ties.size)
    x = np.concatenate([values, ties, dense])
    return np.concatenate([x, -x])[:N]


def _module() -> str:
    funcs = []
    for i, (s, t) in enumerate(CASES):
        funcs.append(f"""func.func @f{i}(%a: tensor<{N}x{s}>) -> tensor<{N}xf32> {{
  %x = stablehlo.convert %a : (tensor<{N}x{s}>) -> tensor<{N}x{t}>
  %o = stablehlo.convert %x : (tensor<{N}x{t}>) -> tensor<{N}xf32>
  return %o : tensor<{N}xf32>
}}""")
    return "\n".join(funcs)


def _check(exe, index):
    source, target = CASES[index]
    x = _sweep(TARGETS[target]).astype(SOURCES[source])
    got = exe.function(f"f{index}")(x)
    with np.errstate(all="ignore"):      # ml_dtypes rounds once, to nearest even
        want = x.astype(TARGETS[target]).astype(np.float32)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert not bad.size, (f"{source} -> {target}: {bad.size} wrong, e.g. {x[bad[:3]]} -> "
                          f"{got[bad[:3]]}, want {want[bad[:3]]}")


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(_module(), context=ctx), target="cpu")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{s}-{t}" for s, t in CASES])
def test_conversion_rounds_to_nearest_even_on_cpu(cpu, index):
    _check(cpu, index)


def test_conversions_on_vulkan(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(_module(), context=ctx), target="vulkan")
    for index in range(len(CASES)):
        _check(exe, index)


WIDE = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}
F8 = {name: dtype for name, dtype in TARGETS.items() if name.startswith("f8")}


def _widen_function(name: str) -> str:
    results = ", ".join(f"tensor<256x{w}>" for w in WIDE)
    lines = [f"func.func @widen_{name}(%b: tensor<256xui8>) -> ({results}) {{",
             f"  %x = stablehlo.bitcast_convert %b : (tensor<256xui8>) -> tensor<256x{name}>"]
    lines += [f"  %{w} = stablehlo.convert %x : (tensor<256x{name}>) -> tensor<256x{w}>"
              for w in WIDE]
    lines += [f"  return {', '.join('%' + w for w in WIDE)} : {results}", "}"]
    return "\n".join(lines)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_every_f8_byte_widens_to_every_wider_float(ctx, target):
    """IREE compiles these only to f32 (and to bf16 on the CPU), and reads the f8E4M3FN NaN
    0xFF as -480: every byte of every f8 type, to f32/f16/bf16/f64, against ml_dtypes."""
    if target == "vulkan":
        vulkan_or_skip()
    text = "\n".join(_widen_function(name) for name in F8)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    bits = np.arange(256, dtype=np.uint8)
    for name, dtype in F8.items():
        for got, wide in zip(exe.function(f"widen_{name}")(bits), WIDE.values()):
            got = np.asarray(got).astype(np.float64)
            want = bits.view(dtype).astype(wide).astype(np.float64)
            np.testing.assert_array_equal(got, want, err_msg=f"{name} -> {wide}")   # NaN == NaN
            finite = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]),
                                          err_msg=f"{name} -> {wide}")
