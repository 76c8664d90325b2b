"""Function signatures of a compiled module, read from the .vmfb's own reflection data.

IREE records each exported function's MLIR signature (`iree.abi.declaration`),
so a loaded .vmfb validates its inputs exactly like a freshly compiled one.
"""
from __future__ import annotations

import dataclasses
import re

import ml_dtypes
import numpy as np

# MLIR element type name -> numpy dtype (what the IREE runtime exchanges).
ELEMENT_DTYPES = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "i64": np.dtype(np.int64),
    "si8": np.dtype(np.int8), "si16": np.dtype(np.int16), "si32": np.dtype(np.int32),
    "si64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8), "ui16": np.dtype(np.uint16), "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "i4": np.dtype(ml_dtypes.int4), "ui4": np.dtype(ml_dtypes.uint4),
    "complex<f32>": np.dtype(np.complex64), "complex<f64>": np.dtype(np.complex128),
}

_TENSOR = re.compile(r"tensor<((?:[0-9?]+x)*)([^>]+(?:<[^>]*>)?)>")


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    shape: tuple            # ints, or None for a dynamic dimension
    element: str            # MLIR element type name
    dtype: np.dtype | None  # None when numpy has no equivalent

    def __str__(self):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"{dims}{self.element}"

    def accepts(self, array: np.ndarray) -> bool:
        return (array.dtype == self.dtype and array.ndim == len(self.shape)
                and all(d is None or d == n for d, n in zip(self.shape, array.shape)))


@dataclasses.dataclass(frozen=True)
class Signature:
    name: str
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]


def parse_declaration(name: str, declaration: str) -> Signature:
    """`sync func @f(%input0: tensor<2x3xf32>) -> (%output0: tensor<f32>)` -> Signature."""
    args, _, results = declaration.partition("->")
    return Signature(name, _specs(args), _specs(results))


def _specs(text: str) -> tuple[TensorSpec, ...]:
    out = []
    for dims, element in _TENSOR.findall(text):
        shape = tuple(None if d == "?" else int(d) for d in dims.split("x") if d)
        out.append(TensorSpec(shape, element, ELEMENT_DTYPES.get(element)))
    return tuple(out)


def describe(array: np.ndarray) -> str:
    """`3x3xf32` for an array, in the same spelling as a TensorSpec."""
    names = {v: k for k, v in reversed(list(ELEMENT_DTYPES.items()))}
    element = names.get(array.dtype, str(array.dtype))
    return "".join(f"{d}x" for d in array.shape) + element
