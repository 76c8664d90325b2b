"""shlo-legalize-reduce-precision: with no mantissa bits NaN becomes an infinity of its sign,
as the reference interpreter says; every other value and format is unchanged. The
interpreter is the oracle, on CPU and Vulkan."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import check_all

FORMATS = [("f64", np.float64, "e5m0"), ("f32", np.float32, "e8m0"), ("f32", np.float32, "e3m0"),
           ("f16", np.float16, "e2m0"), ("f16", np.float16, "e5m0"),
           ("f32", np.float32, "e5m2")]          # with mantissa bits: NaN stays NaN


def values(dtype):
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]
    width = 8 * np.dtype(dtype).itemsize
    top = np.array(1, bits) << np.array(width - 1, bits)
    nans = np.array([np.nan, -np.nan], np.float64).astype(dtype)
    payload = (~np.array(0, bits)).view(dtype)                 # 0xFF..: a negative NaN
    quiet = (np.array(payload, dtype).view(bits) ^ top).view(dtype)   # 0x7F..: positive
    rng = np.random.default_rng(0)
    with np.errstate(over="ignore"):             # 1e30 is inf in f16: fine
        normal = (rng.standard_normal(20) * 10.0 ** rng.integers(-6, 6, 20)).astype(dtype)
        special = np.array([np.inf, -np.inf, 0.0, -0.0, 1.0, -3.5, 1e30]).astype(dtype)
    return np.concatenate([nans, [payload, quiet], special, normal]).astype(dtype)


def case(element, dtype, fmt):
    name = f"rp_{element}_{fmt}"
    n = values(dtype).size
    text = f"""func.func @{name}(%x: tensor<{n}x{element}>) -> tensor<{n}x{element}> {{
  %r = stablehlo.reduce_precision %x, format = {fmt} : tensor<{n}x{element}>
  return %r : tensor<{n}x{element}>
}}"""
    return text, [values(dtype)]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_reduce_precision_matches_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    check_all(ctx, [case(*f) for f in FORMATS], target)
