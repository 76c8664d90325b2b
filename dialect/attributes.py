"""Attribute kinds: how a plain Python value becomes an MLIR attribute.

Each kind has `normalize(value) -> python value` (raises `KindError` naming what it wanted) and
`encode(value) -> ir.Attribute`. Checks and shape inference work on the normalized values.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from iree.compiler import ir

from . import types as T


class KindError(Exception):
    """A Python value of the wrong kind for an attribute; the message says what was expected."""


def _int(x) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise KindError(f"an int, got {x!r}")
    return int(x)


class Int:
    """A signless integer attribute (`i64` for dimensions, `i32` for bit counts)."""
    doc = "int"

    def __init__(self, bits: int = 64):
        self.bits = bits

    def normalize(self, v) -> int:
        v = _int(v)
        if not -(1 << (self.bits - 1)) <= v < (1 << (self.bits - 1)):
            raise KindError(f"an int that fits in i{self.bits}, got {v}")
        return v

    def encode(self, v: int) -> ir.Attribute:
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(self.bits), v)


class Bool:
    doc = "bool"
    def normalize(self, v) -> bool:
        if not isinstance(v, (bool, np.bool_)):
            raise KindError(f"a bool, got {v!r}")
        return bool(v)

    def encode(self, v: bool) -> ir.Attribute:
        return ir.BoolAttr.get(v)


class I64Array:
    """A list of ints, stored as `array<i64: ...>` (DenseI64ArrayAttr)."""
    doc = "list of ints"

    def normalize(self, v) -> tuple[int, ...]:
        if isinstance(v, np.ndarray):
            if v.ndim != 1:
                raise KindError(f"a 1-D sequence of ints, got an array of shape {list(v.shape)}")
            v = v.tolist()
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of ints, got {v!r}")
        return tuple(I64.normalize(x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.DenseI64ArrayAttr.get(list(v))


class Enum:
    """An enum given by name (case-insensitive), stored as ``#dialect<enum NAME>``."""

    def __init__(self, dialect: str, enum: str, names: Sequence[str]):
        self.dialect, self.enum, self.names = dialect, enum, tuple(names)

    @property
    def doc(self) -> str:
        return f"one of {', '.join(self.names)}"

    def normalize(self, v) -> str:
        if isinstance(v, str) and v.upper() in self.names:
            return v.upper()
        raise KindError(f"one of {', '.join(self.names)}, got {v!r}")

    def encode(self, v: str) -> ir.Attribute:
        return ir.Attribute.parse(f"#{self.dialect}<{self.enum} {v}>")


class EnumArray(Enum):
    """A list of enum names, stored as an ArrayAttr of enum attributes (precision_config)."""

    @property
    def doc(self) -> str:
        return f"list of {', '.join(self.names)}"

    def normalize(self, v) -> tuple[str, ...]:
        if isinstance(v, str) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of {', '.join(self.names)}, got {v!r}")
        return tuple(Enum.normalize(self, x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([Enum.encode(self, x) for x in v])


class TypeKind:
    """An MLIR type (e.g. dot_general's accumulation_type), stored as the type itself."""
    doc = "ir.Type"

    def normalize(self, v) -> ir.Type:
        if not isinstance(v, ir.Type):
            raise KindError(f"an ir.Type, got {v!r}")
        return v

    def encode(self, v: ir.Type) -> ir.Attribute:
        return ir.TypeAttr.get(v)


class Elements:
    """A constant's value: a numpy array (or an ir.DenseElementsAttr), kept as given.

    It becomes a DenseElementsAttr in the op's checks, where `result_type` is known.
    """
    doc = "numpy array or Python scalar"

    def normalize(self, v):
        if isinstance(v, (ir.DenseElementsAttr, np.ndarray, np.generic, int, float, complex,
                          bool, list, tuple)):
            return v
        raise KindError(f"a numpy array or a Python scalar, got {type(v).__name__}")

    def encode(self, v) -> ir.Attribute:
        return v if isinstance(v, ir.Attribute) else T.dense_attr(v)


I64, I32 = Int(64), Int(32)
BOOL = Bool()
I64_ARRAY = I64Array()
TYPE = TypeKind()
ELEMENTS = Elements()

COMPARISON_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
COMPARISON_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")
PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def comparison_direction(dialect: str) -> Enum:
    return Enum(dialect, "comparison_direction", COMPARISON_DIRECTIONS)


def comparison_type(dialect: str) -> Enum:
    return Enum(dialect, "comparison_type", COMPARISON_TYPES)


PRECISION_CONFIG = EnumArray("stablehlo", "precision", PRECISIONS)
