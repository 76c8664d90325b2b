"""Unary and binary elementwise ops on every integer width and signedness (and the exact
float ops on f16/f32/f64), including each type's extremes, infinities, NaN and -0, against
the reference interpreter, compiled as one module per target. Found on Vulkan: narrow
count_leading_zeros, unsigned divide/remainder (compile errors) and an inexact float
remainder (shlo-legalize-vulkan-ops)."""
import numpy as np
import pytest

import shlo
from conftest import cases_on, vulkan_or_skip
from reference_oracle import evaluate

INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8,
        "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}
FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
INT_UNARY = ["abs", "negate", "not", "popcnt", "count_leading_zeros", "sign"]
INT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and",
              "or", "xor", "shift_left", "shift_right_logical", "shift_right_arithmetic",
              "power"]
FLOAT_UNARY = ["abs", "negate", "floor", "ceil", "round_nearest_even", "round_nearest_afz",
               "sign"]
FLOAT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum"]
N = 32


def _ints(dtype, rng) -> np.ndarray:
    info = np.iinfo(dtype)
    edges = np.array([0, 1, info.max, info.min, 2, 3, info.max - 1, 7], dtype)
    return np.concatenate([edges, rng.integers(info.min, info.max, N - 8, dtype=dtype,
                                                endpoint=True)])


def _floats(dtype, rng) -> np.ndarray:
    edges = np.array([0.0, -0.0, 1.5, -2.5, 0.5, np.inf, -np.inf, np.nan], dtype)
    return np.concatenate([edges, (rng.standard_normal(N - 8) * 10).astype(dtype)])


def _cases():
    rng = np.random.default_rng(1)
    cases = []
    for name, dtype in INTS.items():
        for op in INT_UNARY:
            if not (op in ("abs", "sign") and name.startswith("u")):     # signed-only ops
                cases.append((op, name, [_ints(dtype, rng)]))
        for op in INT_BINARY:
            a, b = _ints(dtype, rng), _ints(dtype, rng)
            if op in ("divide", "remainder"):                # division by 0 and MIN / -1 are
                b[b == 0] = 1                                 # implementation-defined
                if not name.startswith("u"):
                    b[(a == np.iinfo(dtype).min) & (b == -1)] = 2
            elif op.startswith("shift"):
                b = rng.integers(0, np.iinfo(dtype).bits + 2, N).astype(dtype)
            elif op == "power":
                b = rng.integers(0, 5, N).astype(dtype)
            cases.append((op, name, [a, b]))
    for name, dtype in FLOATS.items():
        cases += [(op, name, [_floats(dtype, rng)]) for op in FLOAT_UNARY]
        cases += [(op, name, [_floats(dtype, rng), _floats(dtype, rng)]) for op in FLOAT_BINARY]
    return cases


CASES = _cases()


def _function(index: int, op: str, type_name: str, arity: int) -> str:
    t = f"tensor<{N}x{type_name}>"
    args = ", ".join(f"%a{j}: {t}" for j in range(arity))
    operands = ", ".join(f"%a{j}" for j in range(arity))
    return (f"func.func @f{index}({args}) -> {t} {{\n  %r = stablehlo.{op} {operands} : {t}\n"
            f"  return %r : {t}\n}}")


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.slow
def test_elementwise_ops_match_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    cases = cases_on(target, enumerate(CASES))
    text = "\n".join(_function(i, op, t, len(args)) for i, (op, t, args) in cases)
    exe = shlo.compile(shlo.parse_module(text, context=ctx), target=target)
    wrong = []
    for i, (op, type_name, args) in cases:
        got = np.asarray(exe.function(f"f{i}")(*args))
        want = np.asarray(evaluate(_function(i, op, type_name, len(args)), args)[0])
        if got.dtype.kind == "f":
            same = (got == want) & (np.signbit(got) == np.signbit(want)) | (
                np.isnan(got) & np.isnan(want))
        else:
            same = got == want
        if not same.all():
            k = int(np.argmin(same))
            wrong.append(f"{op} {type_name}: {[a[k] for a in args]} gave {got[k]!r}, "
                         f"want {want[k]!r}")
    assert not wrong, "\n".join(wrong)
