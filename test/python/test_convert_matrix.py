"""`convert` between every pair of 13 element types (integers of every width and signedness,
f16, bf16, f32, f64), compiled as one module per target and checked against the reference
interpreter (ml_dtypes, and exact integer rounding, for bf16, which the interpreter's Python
binding cannot pass): found Vulkan's integer -> bf16 compile failures
(shlo-legalize-vulkan-ops). Float -> integer values outside the integer's range are left out
(the spec leaves them implementation-defined)."""
import ml_dtypes
import numpy as np
import pytest

import shlo
from conftest import cases_on, vulkan_or_skip
from reference_oracle import evaluate, integers_to_bf16

TYPES = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
         "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
         "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
PAIRS = [(s, d) for s in TYPES for d in TYPES if s != d]
FLOATS = [0.0, -0.0, 1.5, -2.5, 0.5, 100.25, -7.75, 3.0, 65504.0, 1e-3, 12.0, -1.0, 255.0,
          127.0, 2.75, 0.1]


def _function(source: str, target: str, name: str = "") -> str:
    return (f"func.func @{name or 'main'}(%x: tensor<16x{source}>) -> tensor<16x{target}> {{\n"
            f"  %r = stablehlo.convert %x : (tensor<16x{source}>) -> tensor<16x{target}>\n"
            f"  return %r : tensor<16x{target}>\n}}")


def _values(source: str, target: str) -> np.ndarray:
    dtype, to = np.dtype(TYPES[source]), np.dtype(TYPES[target])
    rng = np.random.default_rng(len(source) * 31 + len(target))
    if dtype.kind == "b":
        return np.array([True, False] * 8)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        edges = [0, 1, 2, 100, info.max, info.min, info.max - 1]
        return np.concatenate([np.array(edges, dtype),
                               rng.integers(info.min, info.max, 9, dtype=dtype, endpoint=True)])
    x = np.array(FLOATS, np.float64).astype(dtype)
    if to.kind in "iu":                       # in the integer's range only
        info = np.iinfo(to)
        wide = x.astype(np.float64)
        x = np.where((wide >= info.min) & (wide <= info.max), x, np.zeros_like(x))
    return x


def _oracle(source: str, target: str, x: np.ndarray) -> np.ndarray:
    if "bf16" not in (source, target):
        return np.asarray(evaluate(_function(source, target), [x])[0])
    if target == "bf16" and np.dtype(TYPES[source]).kind in "iub":
        return integers_to_bf16(x)
    with np.errstate(over="ignore"):                  # bf16 65536 -> f16 is inf
        return x.astype(np.float32 if source == "bf16" else x.dtype).astype(TYPES[target])


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_every_conversion_matches_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    pairs = cases_on(target, PAIRS)
    text = "\n".join(_function(s, d, f"c_{s}_{d}") for s, d in pairs)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    wrong = []
    for s, d in pairs:
        x = _values(s, d)
        got = np.asarray(exe.function(f"c_{s}_{d}")(x)).astype(np.float64)
        want = _oracle(s, d, x).astype(np.float64)
        same = (got == want) & (np.signbit(got) == np.signbit(want)) | np.isnan(got) & np.isnan(want)
        if not same.all():
            i = int(np.argmin(same))
            wrong.append(f"{s} -> {d}: {x[i]!r} gave {got[i]!r}, want {want[i]!r}")
    assert not wrong, "\n".join(wrong)
