"""Tensor values of conformance tests on the host: dense literals as numpy, and boundary types.

`decode_dense` reads the text MLIR prints for a dense elements attribute (nested literals,
splats, hex bit patterns, complex pairs, or a hex blob of the raw storage) into a numpy or
ml_dtypes array of the element type. Attributes are read from their text because the Python
bindings cannot hand out complex, sub-byte or small-float attributes as arrays.

`CARRIERS` names, for each element type the runtime cannot exchange as is, the wider type
its values travel in to and from a compiled function (as data: element type -> carrier).
"""
from __future__ import annotations

import re

import numpy as np

from shlo import Error
from shlo.dialect.types import split_top_level

_TENSOR = re.compile(r"^tensor<((?:\d+x)*)(.+)>$")
_BLOB = re.compile(r'^"0x([0-9A-Fa-f]*)"$')
_HEX = re.compile(r"^0x[0-9A-Fa-f]+$")


class ConformanceError(Error):
    """A test file, literal or result that shlo-conformance cannot handle (says what and why)."""


def parse_tensor_type(text: str) -> tuple[tuple[int, ...], str]:
    """`tensor<2x3xf32>` -> ((2, 3), 'f32'); `tensor<complex<f64>>` -> ((), 'complex<f64>')."""
    m = _TENSOR.match(text.strip())
    if not m:
        raise ConformanceError(f"not a static tensor type: {text}")
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    return dims, m.group(2)


def split_typed_attr(text: str) -> tuple[str, str]:
    """`dense<[1, 2]> : tensor<2xi32>` -> ('dense<[1, 2]>', 'tensor<2xi32>')."""
    parts = split_top_level(text, ":")
    if len(parts) != 2:
        raise ConformanceError(f"expected '<literal> : <type>', got: {_short(text)}")
    return parts[0], parts[1]


def decode_dense(literal: str, tensor_type: str, dtype: np.dtype) -> np.ndarray:
    """The array a `dense<...>` literal of type `tensor_type` holds, as `dtype`."""
    shape, element = parse_tensor_type(tensor_type)
    body = literal.strip()
    if not (body.startswith("dense<") and body.endswith(">")):
        raise ConformanceError(f"not a dense literal: {_short(literal)}")
    body = body[len("dense<"):-1].strip()
    count = int(np.prod(shape, dtype=np.int64))
    blob = _BLOB.match(body)
    if blob:
        flat = _from_blob(bytes.fromhex(blob.group(1)), element, dtype, count)
    elif body == "":
        flat = np.zeros(0, dtype)
    else:
        flat = _from_literals(_flatten(body), element, dtype)
    if flat.size == 1 and count != 1:
        flat = np.full(count, flat[0], dtype=dtype)            # a splat
    if flat.size != count:
        raise ConformanceError(f"literal has {flat.size} elements, {tensor_type} needs {count}")
    return flat.reshape(shape)


def _flatten(body: str) -> list[str]:
    """Leaf literals of a nested `[[a, b], [c, d]]` (complex pairs stay whole)."""
    out: list[str] = []
    for item in split_top_level(body):
        if item.startswith("["):
            out.extend(_flatten(item[1:-1]))
        elif item:
            out.append(item)
    return out


def _from_literals(items: list[str], element: str, dtype: np.dtype) -> np.ndarray:
    if element.startswith("complex<"):
        part = element[len("complex<"):-1]
        part_dtype = np.dtype(np.float32 if part == "f32" else np.float64)
        pairs = [split_top_level(i.strip("()")) for i in items]
        out = np.zeros(len(items), np.complex128)
        out.real = _from_literals([p[0] for p in pairs], part, part_dtype)
        out.imag = _from_literals([p[1] for p in pairs], part, part_dtype)
        return out.astype(dtype)
    if element == "i1":
        return np.array([_bool(i) for i in items], dtype=np.bool_)
    if _is_float(element):
        bits = [i for i in items if _HEX.match(i)]
        if bits and len(bits) != len(items):
            return np.array([_float_item(i, dtype) for i in items], dtype=dtype)
        if bits:
            return _from_bits([int(i, 16) for i in items], dtype)
        return np.array([float(i) for i in items], dtype=np.float64).astype(dtype)
    values = [int(i, 0) for i in items]
    if dtype.kind in "iu":
        return np.array(values, dtype=dtype)
    return np.array(values, dtype=np.int64).astype(dtype)          # ml_dtypes int2/int4/...


def _float_item(item: str, dtype: np.dtype):
    if _HEX.match(item):
        return _from_bits([int(item, 16)], dtype)[0]
    return np.array(float(item), dtype=np.float64).astype(dtype)


def _from_bits(bits: list[int], dtype: np.dtype) -> np.ndarray:
    carrier = np.dtype(f"uint{8 * dtype.itemsize}")
    return np.array(bits, dtype=carrier).view(dtype)


def _from_blob(raw: bytes, element: str, dtype: np.dtype, count: int) -> np.ndarray:
    """MLIR's raw storage: little-endian, one byte per element below 8 bits (i1 may be packed)."""
    width = _bit_width(element)
    if element == "i1":
        data = np.frombuffer(raw, np.uint8)
        if len(raw) == (count + 7) // 8 and count > len(raw):
            data = np.unpackbits(data, bitorder="little")[:count]
        return data.astype(np.bool_)
    if width < 8 and not _is_float(element):
        values = (np.frombuffer(raw, np.uint8) & ((1 << width) - 1)).astype(np.int64)
        if _is_signed_int(element):
            values = np.where(values >= 1 << (width - 1), values - (1 << width), values)
        return values.astype(dtype)
    if dtype.itemsize == 1:
        return np.frombuffer(raw, np.uint8).view(dtype)
    return np.frombuffer(raw, dtype.newbyteorder("<")).astype(dtype)


def _bit_width(element: str) -> int:
    m = re.match(r"^(?:si|ui|i)(\d+)$", element)
    if m:
        return int(m.group(1))
    m = re.match(r"^f(\d+)", element)
    return int(m.group(1)) if m else 8


def _is_signed_int(element: str) -> bool:
    return bool(re.match(r"^s?i\d+$", element))


def _is_float(element: str) -> bool:
    return element in ("bf16", "tf32") or bool(re.match(r"^f\d", element))


def _bool(item: str) -> bool:
    if item in ("true", "1"):
        return True
    if item in ("false", "0"):
        return False
    raise ConformanceError(f"not a boolean literal: {item}")


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- crossing the runtime boundary ---------------------------------------------------------------
# shlo's runtime exchanges these element types as they are (every 8-bit float: IREE's own
# element types, or its bytes through shlo's boundary); each other one travels in a wider
# carrier type that holds every one of its values exactly (stablehlo.convert at the edge of
# the compiled function, numpy astype on the host).
NATIVE = frozenset({"i1", "i8", "i16", "i32", "i64", "si8", "si16", "si32", "si64", "ui8",
                    "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2",
                    "f8E3M4", "f8E4M3", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ",
                    "f8E8M0FNU", "complex<f32>", "complex<f64>"})

CARRIERS: dict[str, str] = {
    "i2": "i8", "i4": "i8", "si2": "i8", "si4": "i8", "ui2": "i8", "ui4": "i8",
    **{f: "f32" for f in ("f6E2M3FN", "f6E3M2FN", "f4E2M1FN")},
}


def carrier_of(element: str) -> str | None:
    """The carrier element type of a type the runtime cannot exchange as is, else None."""
    return None if element in NATIVE else CARRIERS.get(element)
