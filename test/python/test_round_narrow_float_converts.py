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
