"""Random stablehlo.reduce_window and stablehlo.select_and_scatter functions (padding, base and
window dilation, strides that leave a tail unread) for checking shlo's decompositions against
the reference interpreter."""
from __future__ import annotations

import numpy as np

from gather_scatter_programs import tensor
from shlo.dialect.windows import num_windows

# reduction -> init value that acts as its identity on the values used here
REDUCTIONS = {"add": 0, "multiply": 1, "maximum": -1000, "minimum": 1000}
UNSIGNED = {"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32}


def _init(reduction: str, element: str) -> str:
    if element in UNSIGNED:
        top = int(np.iinfo(UNSIGNED[element]).max)
        return str({"add": 0, "multiply": 1, "maximum": 0, "minimum": top}[reduction])
    value = REDUCTIONS[reduction]
    return f"{value}.0" if element == "f32" else str(value)


def _array(values) -> str:
    return "array<i64: " + ", ".join(str(int(v)) for v in values) + ">"


def _ints(rng, rank: int, low: int, high: int) -> list[int]:
    return [int(rng.integers(low, high)) for _ in range(rank)]


def _values(rng, shape, element: str) -> np.ndarray:
    dtype = {"f32": np.float32, "i32": np.int32, **UNSIGNED}[element]
    low = 0 if element in UNSIGNED else -4
    return rng.integers(low, 5, shape).astype(dtype)


def reduce_window(rng, name: str, element: str | None = None):
    """(function text, [input]) with a non-empty result."""
    while True:
        rank = int(rng.integers(1, 4))
        shape = _ints(rng, rank, 1, 6)
        window, strides = _ints(rng, rank, 1, 4), _ints(rng, rank, 1, 3)
        base, dilation = _ints(rng, rank, 1, 4), _ints(rng, rank, 1, 3)
        padding = [_ints(rng, 2, -1, 3) for _ in range(rank)]
        out = [num_windows(*a, lo, hi) for *a, (lo, hi) in
               zip(shape, window, strides, base, dilation, padding)]
        if all(n > 0 for n in out):
            break
    e = element or str(rng.choice(["f32", "i32"]))
    reduction = str(rng.choice(sorted(REDUCTIONS)))
    init = _init(reduction, e)
    s = tensor([], e)
    text = (f"func.func @{name}(%x: {tensor(shape, e)}) -> {tensor(out, e)} {{\n"
            f"  %c = stablehlo.constant dense<{init}> : {s}\n"
            f"  %0 = \"stablehlo.reduce_window\"(%x, %c) <{{window_dimensions = {_array(window)}, "
            f"window_strides = {_array(strides)}, base_dilations = {_array(base)}, "
            f"window_dilations = {_array(dilation)}, padding = dense<{padding}> : "
            f"tensor<{rank}x2xi64>}}> ({{\n  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %1 = stablehlo.{reduction} %a, %b : {s}\n    stablehlo.return %1 : {s}\n"
            f"  }}) : ({tensor(shape, e)}, {s}) -> {tensor(out, e)}\n"
            f"  return %0 : {tensor(out, e)}\n}}")
    return text, [_values(rng, shape, e)]


def select_and_scatter(rng, name: str):
    """(function text, [operand, source, init]); init is 0, the identity of the add scatter
    (the spec lets `reduce` use a non-identity init a varying number of times)."""
    while True:
        rank = int(rng.integers(1, 4))
        shape = _ints(rng, rank, 1, 6)
        window, strides = _ints(rng, rank, 1, 4), _ints(rng, rank, 1, 3)
        padding = [_ints(rng, 2, 0, 3) for _ in range(rank)]
        out = [num_windows(n, w, s, 1, 1, lo, hi)
               for n, w, s, (lo, hi) in zip(shape, window, strides, padding)]
        if all(n > 0 for n in out):
            break
    e = str(rng.choice(["f32", "i32"]))
    direction = str(rng.choice(["GE", "GT", "LE", "LT"]))
    s, x, src = tensor([], e), tensor(shape, e), tensor(out, e)
    text = (f"func.func @{name}(%x: {x}, %s: {src}, %init: {s}) -> {x} {{\n"
            f"  %0 = \"stablehlo.select_and_scatter\"(%x, %s, %init) <{{window_dimensions = "
            f"{_array(window)}, window_strides = {_array(strides)}, padding = dense<{padding}> : "
            f"tensor<{rank}x2xi64>}}> ({{\n  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %1 = stablehlo.compare {direction}, %a, %b : ({s}, {s}) -> tensor<i1>\n"
            f"    stablehlo.return %1 : tensor<i1>\n  }}, {{\n  ^bb0(%a: {s}, %b: {s}):\n"
            f"    %1 = stablehlo.add %a, %b : {s}\n    stablehlo.return %1 : {s}\n"
            f"  }}) : ({x}, {src}, {s}) -> {x}\n  return %0 : {x}\n}}")
    source = _values(rng, out, e) + 5          # positive: every selection shows
    return text, [_values(rng, shape, e), source, np.zeros((), source.dtype)]
