"""XLA shapes: `Shape.array_shape(dtype, dims)`, `Shape.tuple_shape([...])`, `Shape.token_shape()`.

An element type is anything `np.dtype()` accepts (ml_dtypes included) or an XLA primitive type
name (`"F32"`, `"S32"`, `"PRED"`, `"BF16"`, ...). Upper-case XLA names win over numpy's codes
("U8" is uint8 but numpy's "u8" is uint64); a lower-case XLA name numpy does not know ("s32",
"bf16", "pred") is read as XLA's. Shapes print the XLA way: `f32[2,3]`, `(f32[2], s32[])`.
"""
from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np
from iree.compiler import ir

from shlo.dialect import types as T

from .errors import XlaError

# XLA primitive type name -> numpy / ml_dtypes dtype.
XLA_TYPES: dict[str, np.dtype] = {name: np.dtype(d) for name, d in [
    ("PRED", np.bool_), ("S2", ml_dtypes.int2), ("S4", ml_dtypes.int4), ("S8", np.int8),
    ("S16", np.int16), ("S32", np.int32), ("S64", np.int64), ("U2", ml_dtypes.uint2),
    ("U4", ml_dtypes.uint4), ("U8", np.uint8), ("U16", np.uint16), ("U32", np.uint32),
    ("U64", np.uint64), ("F16", np.float16), ("BF16", ml_dtypes.bfloat16), ("F32", np.float32),
    ("F64", np.float64), ("C64", np.complex64), ("C128", np.complex128),
    ("F8E4M3FN", ml_dtypes.float8_e4m3fn), ("F8E5M2", ml_dtypes.float8_e5m2),
    ("F8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz), ("F8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz),
    ("F8E4M3B11FNUZ", ml_dtypes.float8_e4m3b11fnuz), ("F8E3M4", ml_dtypes.float8_e3m4),
    ("F8E4M3", ml_dtypes.float8_e4m3), ("F8E8M0FNU", ml_dtypes.float8_e8m0fnu),
    ("F4E2M1FN", ml_dtypes.float4_e2m1fn),
]}
UNBOUNDED = -1            # a dynamic dimension with no bound
XLA_NAME: dict[np.dtype, str] = {d: n for n, d in XLA_TYPES.items()}


def dtype(element_type) -> np.dtype:
    """The numpy dtype of an element type given as an XLA name, a numpy dtype or an ir.Type."""
    if isinstance(element_type, ir.Type):
        return T.element_dtype(element_type)
    if isinstance(element_type, str) and element_type in XLA_TYPES:
        return XLA_TYPES[element_type]
    try:
        d = np.dtype(element_type)
    except TypeError:
        d = None
    if d is None and isinstance(element_type, str) and element_type.upper() in XLA_TYPES:
        return XLA_TYPES[element_type.upper()]
    if d is None or d not in XLA_NAME:
        raise XlaError(f"Shape: unknown element type {element_type!r}; use a numpy dtype or an "
                       f"XLA name ({', '.join(XLA_TYPES)})")
    return d


def type_name(d: np.dtype) -> str:
    """XLA's lower-case name of a dtype: f32, s32, pred, bf16."""
    return XLA_NAME[np.dtype(d)].lower()


class Shape:
    """An XLA shape: an array (element type and dimensions), a tuple of shapes, or a token.

    Dimensions of a dynamic array report their bound (UNBOUNDED, -1, for none), with
    `is_dynamic_dimension`."""

    def __init__(self, element_type=None, dimensions: Sequence[int] = (), *,
                 tuple_shapes: Sequence["Shape"] | None = None, token: bool = False,
                 dynamic: Sequence[bool] | None = None):
        self._tuple = None if tuple_shapes is None else tuple(tuple_shapes)
        self._token = token
        self._dtype = None if element_type is None else dtype(element_type)
        try:
            self._dims = tuple(int(d) for d in dimensions)
        except (TypeError, ValueError):
            raise XlaError(f"Shape: dimensions must be a sequence of ints, got {dimensions!r}") \
                from None
        self._dynamic = tuple(bool(x) for x in dynamic) if dynamic else (False,) * len(self._dims)
        if len(self._dynamic) != len(self._dims):
            raise XlaError("Shape: dynamic dimensions need one flag per dimension")
        if any(d < 0 and not (d == UNBOUNDED and dyn) for d, dyn in zip(self._dims,
                                                                         self._dynamic)):
            raise XlaError(f"Shape: dimensions must be non-negative, got {list(self._dims)}")

    @staticmethod
    def array_shape(element_type, dims: Sequence[int], dynamic_dimensions=None) -> "Shape":
        return Shape(element_type, dims, dynamic=dynamic_dimensions)

    @staticmethod
    def scalar_shape(element_type) -> "Shape":
        return Shape(element_type, ())

    @staticmethod
    def tuple_shape(shapes: Sequence["Shape"]) -> "Shape":
        shapes = list(shapes)
        bad = [s for s in shapes if not isinstance(s, Shape)]
        if bad:
            raise XlaError(f"Shape.tuple_shape: elements must be Shapes, got {bad[0]!r}")
        return Shape(tuple_shapes=shapes)

    @staticmethod
    def token_shape() -> "Shape":
        return Shape(token=True)

    def is_tuple(self) -> bool:
        return self._tuple is not None

    def is_token(self) -> bool:
        return self._token

    def is_array(self) -> bool:
        return not self._token and self._tuple is None

    def tuple_shapes(self) -> list["Shape"]:
        if self._tuple is None:
            raise XlaError(f"Shape: {self} is not a tuple")
        return list(self._tuple)

    def element_type(self) -> np.dtype:
        if not self.is_array():
            raise XlaError(f"Shape: {self} has no element type")
        return self._dtype  # type: ignore[return-value]  # None only for a bare Shape()

    def dimensions(self) -> tuple[int, ...]:
        if not self.is_array():
            raise XlaError(f"Shape: {self} has no dimensions")
        return self._dims

    def rank(self) -> int:
        return len(self.dimensions())

    def is_dynamic_dimension(self, i: int) -> bool:
        return self._dynamic[i]

    def leaves(self) -> list["Shape"]:
        """The array and token shapes of this shape, depth first (a tuple's flattening)."""
        if self._tuple is None:
            return [self]
        return [leaf for s in self._tuple for leaf in s.leaves()]

    def ir_type(self) -> ir.Type:
        """The MLIR type of an array or token shape (in the current context)."""
        if self._token:
            return T.token_type()
        if self._tuple is not None:
            return T.tuple_type([s.ir_type() for s in self._tuple])
        if any(self._dynamic):
            bounds = [d if dyn and d != UNBOUNDED else None
                      for d, dyn in zip(self._dims, self._dynamic)]
            return T.tensor_type([None if dyn else d for d, dyn in zip(self._dims, self._dynamic)],
                                 self._dtype,
                                 bounds=bounds if any(x is not None for x in bounds) else None)
        return T.tensor_type(self._dims, self._dtype)

    def ir_types(self) -> list[ir.Type]:
        return [s.ir_type() for s in self.leaves()]

    @staticmethod
    def from_ir(t: ir.Type) -> "Shape":
        if T.is_token(t):
            return Shape.token_shape()
        if T.is_tuple(t):
            return Shape.tuple_shape([Shape.from_ir(e) for e in T.tuple_elements(t)])
        rt = T.as_ranked(t, "an XLA value's type")
        bounds = T.bounds(rt)
        dims = [(UNBOUNDED if b is None else b) if d == T.DYN else d
                for d, b in zip(rt.shape, bounds)]
        return Shape(T.element_dtype(rt.element_type), dims,
                     dynamic=[d == T.DYN for d in rt.shape])

    def _key(self):
        return (self._token, self._tuple, self._dtype, self._dims, self._dynamic)

    def __eq__(self, other):
        return isinstance(other, Shape) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        if self._token:
            return "token[]"
        if self._tuple is not None:
            return "(" + ", ".join(map(repr, self._tuple)) + ")"
        dims = ",".join(("?" if d == UNBOUNDED else f"<={d}") if dyn else str(d)
                        for d, dyn in zip(self._dims, self._dynamic))
        return f"{type_name(self._dtype)}[{dims}]"  # type: ignore[arg-type]  # as element_type


def as_shape(what: str, shape) -> Shape:
    if not isinstance(shape, Shape):
        raise XlaError(f"{what}: shape must be an xla.Shape (xla.Shape.array_shape(dtype, dims)), "
                       f"got {type(shape).__name__}")
    return shape


class ProgramShape:
    """The parameter shapes (and names) and the result shape of an XlaComputation."""

    def __init__(self, parameters: Sequence[Shape], result: Shape, names: Sequence[str] = ()):
        self._parameters = list(parameters)
        self._result = result
        self._names = list(names) or [""] * len(self._parameters)

    def parameter_shapes(self) -> list[Shape]:
        return list(self._parameters)

    def parameter_names(self) -> list[str]:
        return list(self._names)

    def result_shape(self) -> Shape:
        return self._result

    def __eq__(self, other):
        return (isinstance(other, ProgramShape) and self._parameters == other._parameters
                and self._result == other._result)

    def __repr__(self):
        params = ", ".join(f"{n or f'p{i}'}: {s}" for i, (n, s) in
                           enumerate(zip(self._names, self._parameters)))
        return f"({params}) -> {self._result}"
