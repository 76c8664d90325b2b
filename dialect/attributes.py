"""Attribute kinds: how a plain Python value becomes an MLIR attribute.

Each kind has `normalize(value) -> python value` (raises `KindError` naming what it wanted),
`encode(value) -> ir.Attribute` and its inverse `decode(ir.Attribute) -> python value` (used to
rebuild a parsed op through its builder). Checks and shape inference work on the normalized values.
A `Struct` is an MLIR attribute whose fields are separate builder keywords (dimension numbers,
channel handles): an `Attr` names its struct and field, and the builder groups them.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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

    def decode(self, a: ir.Attribute) -> int:
        return ir.IntegerAttr(a).value

    text, parse = staticmethod(str), staticmethod(lambda t, ctx: int(t))


class Bool:
    doc = "bool"
    def normalize(self, v) -> bool:
        if not isinstance(v, (bool, np.bool_)):
            raise KindError(f"a bool, got {v!r}")
        return bool(v)

    def encode(self, v: bool) -> ir.Attribute:
        return ir.BoolAttr.get(v)

    def decode(self, a: ir.Attribute) -> bool:
        return ir.BoolAttr(a).value

    @staticmethod
    def text(v: bool) -> str:
        return "true" if v else "false"

    @staticmethod
    def parse(t: str, ctx) -> bool:
        return t == "true"


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

    def decode(self, a: ir.Attribute) -> tuple[int, ...]:
        return tuple(ir.DenseI64ArrayAttr(a))

    @staticmethod
    def text(v) -> str:
        return "[" + ", ".join(map(str, v)) + "]"

    @staticmethod
    def parse(t: str, ctx) -> tuple[int, ...]:
        return tuple(int(x) for x in t.strip("[]").split(",") if x.strip())


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

    def decode(self, a: ir.Attribute) -> str:
        return enum_name(a)


class EnumArray(Enum):
    """A list of enum names, stored as an ArrayAttr of enum attributes (precision_config)."""

    @property
    def doc(self) -> str:
        return f"list of {', '.join(self.names)}"

    def normalize(self, v) -> tuple[str, ...]:  # type: ignore[override]  # names, not one name
        if isinstance(v, str) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of {', '.join(self.names)}, got {v!r}")
        return tuple(Enum.normalize(self, x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([Enum.encode(self, x) for x in v])

    def decode(self, a: ir.Attribute) -> tuple[str, ...]:  # type: ignore[override]  # as normalize
        return tuple(enum_name(x) for x in ir.ArrayAttr(a))


class TypeKind:
    """An MLIR type (e.g. dot_general's accumulation_type), stored as the type itself."""
    doc = "ir.Type"

    def normalize(self, v) -> ir.Type:
        if not isinstance(v, ir.Type):
            raise KindError(f"an ir.Type, got {v!r}")
        return v

    def encode(self, v: ir.Type) -> ir.Attribute:
        return ir.TypeAttr.get(v)

    def decode(self, a: ir.Attribute) -> ir.Type:
        return ir.TypeAttr(a).value

    text = staticmethod(str)

    @staticmethod
    def parse(t: str, ctx) -> ir.Type:
        return ir.Type.parse(t, ctx)


class Elements:
    """A constant's value: a numpy array (or an ir.DenseElementsAttr), kept as given.

    It becomes a DenseElementsAttr in the op's checks, where `result_type` is known.
    """
    doc = "numpy array, Python scalar or elements attribute"

    def normalize(self, v):
        if isinstance(v, (ir.Attribute, np.ndarray, np.generic, int, float, complex,
                          bool, list, tuple)):
            return v
        raise KindError(f"a numpy array or a Python scalar, got {type(v).__name__}")

    def encode(self, v) -> ir.Attribute:
        return v if isinstance(v, ir.Attribute) else T.dense_attr(v)

    def decode(self, a: ir.Attribute):
        return a


def enum_name(a: ir.Attribute) -> str:
    """``#stablehlo<comparison_direction LT>`` or ``#stablehlo.x_mode<TOLERANCE>`` -> its name."""
    text = str(a).rstrip(">")
    return text.replace("<", " ").split()[-1]


class Float:
    """A float attribute (batch_norm's `epsilon` is f32)."""
    doc = "float"

    def __init__(self, bits: int = 32):
        self.bits = bits

    def normalize(self, v) -> float:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer,
                                                                  np.floating)):
            raise KindError(f"a float, got {v!r}")
        return float(v)

    def encode(self, v: float) -> ir.Attribute:
        return ir.FloatAttr.get(ir.F32Type.get() if self.bits == 32 else ir.F64Type.get(), v)

    def decode(self, a: ir.Attribute) -> float:
        return ir.FloatAttr(a).value

    @staticmethod
    def text(v: float) -> str:
        return f"{v:.17e}"

    @staticmethod
    def parse(t: str, ctx) -> float:
        return float(t)


class String:
    doc = "str"

    def normalize(self, v) -> str:
        if not isinstance(v, str):
            raise KindError(f"a str, got {v!r}")
        return v

    def encode(self, v: str) -> ir.Attribute:
        return ir.StringAttr.get(v)

    def decode(self, a: ir.Attribute) -> str:
        return ir.StringAttr(a).value


class Symbol:
    """A function name, stored as ``@name`` (FlatSymbolRefAttr); given with or without '@'."""
    doc = "function name (str)"

    def normalize(self, v) -> str:
        if not isinstance(v, str) or not v.lstrip("@"):
            raise KindError(f"a function name, got {v!r}")
        return v.lstrip("@")

    def encode(self, v: str) -> ir.Attribute:
        return ir.FlatSymbolRefAttr.get(v)

    def decode(self, a: ir.Attribute) -> str:
        return ir.FlatSymbolRefAttr(a).value


class SymbolArray:
    doc = "list of function names"

    def normalize(self, v) -> tuple[str, ...]:
        if isinstance(v, str) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of function names, got {v!r}")
        return tuple(SYMBOL.normalize(x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(x) for x in v])

    def decode(self, a: ir.Attribute) -> tuple[str, ...]:
        return tuple(ir.FlatSymbolRefAttr(x).value for x in ir.ArrayAttr(a))


class Unit(Bool):
    """A flag stored as a UnitAttr when True and left out when False (use_global_device_ids)."""

    def encode(self, v: bool):
        return ir.UnitAttr.get() if v else None

    def decode(self, a: ir.Attribute) -> bool:
        return True


class BoolArray:
    """A list of bools, stored as ``array<i1: ...>`` (window_reversal)."""
    doc = "list of bools"

    def normalize(self, v) -> tuple[bool, ...]:
        if isinstance(v, np.ndarray):
            v = v.tolist()
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of bools, got {v!r}")
        return tuple(BOOL.normalize(x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.DenseBoolArrayAttr.get(list(v))

    def decode(self, a: ir.Attribute) -> tuple[bool, ...]:
        return tuple(ir.DenseBoolArrayAttr(a))


class I64Matrix:
    """A 2-D array of ints, stored as ``dense<...> : tensor<NxMxi64>`` (padding, replica_groups,
    source_target_pairs); normalized to a 2-D int64 numpy array."""
    doc = "2-D list of ints"

    def normalize(self, v) -> np.ndarray:
        if isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray)):
            raise KindError(f"a 2-D sequence of ints, got {v!r}")
        try:
            arr = np.array(v, dtype=object)
        except ValueError:
            raise KindError(f"a rectangular 2-D sequence of ints, got {v!r}") from None
        if arr.size == 0 and arr.ndim <= 2:
            return np.zeros((arr.shape[0] if arr.ndim == 2 else 0,
                             arr.shape[1] if arr.ndim == 2 else 0), np.int64)
        if arr.ndim != 2:
            raise KindError(f"a rectangular 2-D sequence of ints, got {v!r}")
        return np.array([[_int(x) for x in row] for row in arr], dtype=np.int64)

    def encode(self, v: np.ndarray) -> ir.Attribute:
        rows = ", ".join("[" + ", ".join(map(str, r)) + "]" for r in v.tolist())
        return ir.Attribute.parse(f"dense<[{rows}]> : tensor<{v.shape[0]}x{v.shape[1]}xi64>"
                                  if v.size else
                                  f"dense<> : tensor<{v.shape[0]}x{v.shape[1]}xi64>")

    def decode(self, a: ir.Attribute) -> np.ndarray:
        dense = ir.DenseIntElementsAttr(a)
        shape = list(ir.ShapedType(dense.type).shape)
        if dense.is_splat:
            return np.full(shape, dense.get_splat_value().value, np.int64)
        return np.array([dense[i] for i in range(len(dense))], np.int64).reshape(shape)


def _scalar_attr(v) -> ir.Attribute:
    """A Python value as an MLIR attribute: bool -> BoolAttr, int -> i64, float -> f64,
    str -> StringAttr, numpy array -> DenseElementsAttr, list -> ArrayAttr; attributes as is."""
    if isinstance(v, ir.Attribute):
        return v
    if isinstance(v, (bool, np.bool_)):
        return ir.BoolAttr.get(bool(v))
    if isinstance(v, (int, np.integer)):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(v))
    if isinstance(v, (float, np.floating)):
        return ir.FloatAttr.get(ir.F64Type.get(), float(v))
    if isinstance(v, str):
        return ir.StringAttr.get(v)
    if isinstance(v, np.ndarray):
        return T.dense_attr(v)
    if isinstance(v, (list, tuple)):
        return ir.ArrayAttr.get([_scalar_attr(x) for x in v])
    if isinstance(v, dict):
        return DICT.encode(DICT.normalize(v))
    raise KindError(f"a bool, int, float, str, numpy array, list, dict or ir.Attribute, "
                    f"got {type(v).__name__}")


class Dict:
    """A dictionary attribute (composite_attributes, a typed-FFI backend_config): a dict of
    str -> value, each value as `_scalar_attr` makes it (int -> i64, float -> f64, ...)."""
    doc = "dict of str -> bool/int/float/str/numpy array/list/ir.Attribute"

    def normalize(self, v) -> dict:
        if isinstance(v, ir.Attribute):
            d = v.maybe_downcast()
            if not isinstance(d, ir.DictAttr):
                raise KindError(f"a dict or an ir.DictAttr, got {v}")
            return {d[i].name: d[i].attr for i in range(len(d))}
        if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
            raise KindError(f"a dict with str keys, got {v!r}")
        return {k: _scalar_attr(x) for k, x in v.items()}

    def encode(self, v: dict) -> ir.Attribute:
        return ir.DictAttr.get(dict(v))

    def decode(self, a: ir.Attribute) -> dict:
        return self.normalize(a)


class StringOrDict:
    """custom_call's backend_config: a str (API versions 1-3) or a dict (typed FFI)."""
    doc = "str or dict"

    def normalize(self, v):
        return v if isinstance(v, str) else DICT.normalize(v)

    def encode(self, v) -> ir.Attribute:
        return ir.StringAttr.get(v) if isinstance(v, str) else DICT.encode(v)

    def decode(self, a: ir.Attribute):
        d = a.maybe_downcast()
        return ir.StringAttr(a).value if isinstance(d, ir.StringAttr) else DICT.decode(a)


class IntEnum(Enum):
    """An enum given by name and stored as an integer (custom_call's api_version, a channel
    handle's type)."""

    def __init__(self, names: Sequence[str], bits: int = 32):
        super().__init__("", "", names)
        self.bits = bits

    def encode(self, v: str) -> ir.Attribute:
        return Int(self.bits).encode(self.names.index(v))

    def decode(self, a: ir.Attribute) -> str:
        return self.names[ir.IntegerAttr(a).value]

    def text(self, v: str) -> str:
        return str(self.names.index(v))

    def parse(self, t: str, ctx) -> str:
        return self.names[int(t)]


class Layouts:
    """custom_call's operand_layouts / result_layouts: one minor-to-major list per value,
    stored as ``[dense<[1, 0]> : tensor<2xindex>, ...]``."""
    doc = "list of lists of ints"

    def normalize(self, v) -> tuple[tuple[int, ...], ...]:
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of int sequences, got {v!r}")
        return tuple(I64_ARRAY.normalize(x) for x in v)

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([ir.Attribute.parse(
            f"dense<[{', '.join(map(str, x))}]> : tensor<{len(x)}xindex>" if x else
            "dense<> : tensor<0xindex>") for x in v])

    def decode(self, a: ir.Attribute):
        return tuple(tuple(int(y) for y in ir.DenseIntElementsAttr(x))
                     for x in ir.ArrayAttr(a))


class NestedIntArrays(Layouts):
    """infeed's layout: ``[[0, 1], [0]]`` (an ArrayAttr of ArrayAttrs of i64)."""

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([ir.ArrayAttr.get([I64.encode(y) for y in x]) for x in v])

    def decode(self, a: ir.Attribute):
        return tuple(tuple(ir.IntegerAttr(y).value for y in ir.ArrayAttr(x))
                     for x in ir.ArrayAttr(a))


class Scalar:
    """chlo.constant_like's value: a Python/numpy scalar or a typed ir.Attribute; the op
    gives it the operand's element type."""
    doc = "Python scalar or typed ir.Attribute"

    def normalize(self, v):
        if isinstance(v, (ir.Attribute, bool, int, float, complex, np.generic)):
            return v
        raise KindError(f"a scalar or an ir.Attribute, got {type(v).__name__}")

    def encode(self, v) -> ir.Attribute:
        return v

    def decode(self, a: ir.Attribute):
        return a


class Struct:
    """An attribute ``#dialect.mnemonic<field = value, ...>`` whose fields are separate builder
    keywords. `fields` maps each field to the kind that formats (`text`) and reads (`parse`) it;
    fields left None or empty are left out, as the printer does."""

    def __init__(self, mnemonic: str, fields: dict):
        self.mnemonic, self.fields = mnemonic, dict(fields)

    def encode(self, values: dict) -> ir.Attribute:
        parts = [f"{k} = {self.fields[k].text(v)}" for k, v in values.items()
                 if v is not None and v != ()]
        return ir.Attribute.parse(f"#{self.mnemonic}<{', '.join(parts)}>")

    def decode(self, a: ir.Attribute) -> dict:
        text = str(a)
        return self._fields(text[text.index("<") + 1:-1], a.context)

    def _fields(self, body: str, ctx) -> dict:
        out = {k: () for k, kind in self.fields.items() if isinstance(kind, I64Array)}
        for part in T.split_top_level(body):
            k, _, v = part.partition("=")
            out[k.strip()] = self.fields[k.strip()].parse(v.strip(), ctx)
        return out


class ConvStruct(Struct):
    """``#stablehlo.conv``: written in its raw form, read back from the printed layout form
    ``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` (b/f: batch/feature, i/o: kernel input/output
    feature, digits: spatial dimensions in order)."""
    LAYOUTS = (("input", "bf", ("batch_dimension", "feature_dimension")),
               ("kernel", "io", ("input_feature_dimension", "output_feature_dimension")),
               ("output", "bf", ("batch_dimension", "feature_dimension")))

    def encode(self, values: dict) -> ir.Attribute:
        parts = [f"{k} = {self.fields[k].text(values[k])}" for k in self.fields]
        return ir.Attribute.parse(f"#{self.mnemonic}<raw {', '.join(parts)}>")

    def decode(self, a: ir.Attribute) -> dict:
        text = str(a)
        body = text[text.index("<") + 1:-1].strip()
        if body.startswith("raw"):
            return self._fields(body[3:], a.context)
        ins, _, output = body.partition("->")
        inp, _, ker = ins.partition("]x[")
        out: dict[str, int | tuple[int, ...]] = {}
        for (prefix, letters, names), layout in zip(self.LAYOUTS, (inp, ker, output)):
            dims = [d.strip() for d in layout.strip().strip("[]").split(",")]
            for letter, name in zip(letters, names):
                out[f"{prefix}_{name}"] = dims.index(letter)
            spatial = sorted((int(d), i) for i, d in enumerate(dims) if d.isdigit())
            out[f"{prefix}_spatial_dimensions"] = tuple(i for _, i in spatial)
        return out


class ResultAccuracy:
    """result_accuracy of the transcendental ops: a mode name (DEFAULT, HIGHEST, TOLERANCE) or a
    dict with `mode` and the TOLERANCE mode's `atol`, `rtol`, `ulps`."""
    doc = "mode name or dict(atol=, rtol=, ulps=, mode=)"
    MODES = ("DEFAULT", "HIGHEST", "TOLERANCE")

    def normalize(self, v) -> dict:
        if isinstance(v, str):
            v = {"mode": v}
        if not isinstance(v, dict) or set(v) - {"atol", "rtol", "ulps", "mode"}:
            raise KindError(f"a mode name or a dict with keys atol, rtol, ulps, mode, got {v!r}")
        mode = v.get("mode", "TOLERANCE" if set(v) - {"mode"} else "DEFAULT")
        if not isinstance(mode, str) or mode.upper() not in self.MODES:
            raise KindError(f"a mode in {', '.join(self.MODES)}, got {mode!r}")
        out: dict[str, Any] = {"atol": FLOAT.normalize(v.get("atol", 0.0)),
               "rtol": FLOAT.normalize(v.get("rtol", 0.0)),
               "ulps": I64.normalize(v.get("ulps", 0)), "mode": mode.upper()}
        tolerances = [out["atol"], out["rtol"], out["ulps"]]
        if min(tolerances) < 0:
            raise KindError(f"non-negative tolerances, got {v!r}")
        if out["mode"] != "TOLERANCE" and any(tolerances):
            raise KindError(f"zero tolerances for mode {out['mode']}, got {v!r}")
        return out

    def encode(self, v: dict) -> ir.Attribute:
        return ir.Attribute.parse(
            f"#stablehlo.result_accuracy<atol = {FLOAT.text(v['atol'])}, rtol = "
            f"{FLOAT.text(v['rtol'])}, ulps = {v['ulps']}, mode = "
            f"#stablehlo.result_accuracy_mode<{v['mode']}>>")

    def decode(self, a: ir.Attribute) -> dict:
        fields = Struct("", {"atol": FLOAT, "rtol": FLOAT, "ulps": I64,
                             "mode": _NestedEnum()}).decode(a)
        return self.normalize({k: v for k, v in fields.items() if v != ()})


class _NestedEnum:
    """A struct field holding an enum attribute (``#stablehlo.result_accuracy_mode<X>``)."""

    @staticmethod
    def parse(t: str, ctx) -> str:
        return t.rstrip(">").split("<")[-1]


class OutputOperandAliases:
    """custom_call's output_operand_aliases: a list of (output_tuple_indices, operand_index,
    operand_tuple_indices) triples (or dicts with those keys)."""
    doc = "list of (output_tuple_indices, operand_index, operand_tuple_indices)"
    KEYS = ("output_tuple_indices", "operand_index", "operand_tuple_indices")

    def normalize(self, v) -> tuple:
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise KindError(f"a sequence of alias triples, got {v!r}")
        out = []
        for x in v:
            if isinstance(x, dict):
                x = tuple(x.get(k, () if k != "operand_index" else None) for k in self.KEYS)
            if not isinstance(x, (list, tuple)) or len(x) != 3:
                raise KindError(f"alias triples (output_tuple_indices, operand_index, "
                                f"operand_tuple_indices), got {x!r}")
            out.append((I64_ARRAY.normalize(x[0]), I64.normalize(x[1]),
                        I64_ARRAY.normalize(x[2])))
        return tuple(out)

    def encode(self, v) -> ir.Attribute:
        return ir.ArrayAttr.get([ir.Attribute.parse(
            f"#stablehlo.output_operand_alias<output_tuple_indices = {I64_ARRAY.text(o)}, "
            f"operand_index = {i}, operand_tuple_indices = {I64_ARRAY.text(p)}>")
            for o, i, p in v])

    def decode(self, a: ir.Attribute) -> tuple:
        st = Struct("", {"output_tuple_indices": I64_ARRAY, "operand_index": I64,
                         "operand_tuple_indices": I64_ARRAY})
        out = []
        for x in ir.ArrayAttr(a):
            d = st.decode(x)
            out.append((d["output_tuple_indices"], d.get("operand_index", 0),
                        d["operand_tuple_indices"]))
        return tuple(out)


I64, I32 = Int(64), Int(32)
BOOL = Bool()
I64_ARRAY = I64Array()
TYPE = TypeKind()
ELEMENTS = Elements()
FLOAT = Float(32)
STRING = String()
SYMBOL = Symbol()
SYMBOL_ARRAY = SymbolArray()
UNIT = Unit()
BOOL_ARRAY = BoolArray()
I64_MATRIX = I64Matrix()
DICT = Dict()
STRING_OR_DICT = StringOrDict()
LAYOUTS = Layouts()
NESTED_INT_ARRAYS = NestedIntArrays()
SCALAR = Scalar()
RESULT_ACCURACY = ResultAccuracy()
OUTPUT_OPERAND_ALIASES = OutputOperandAliases()

COMPARISON_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
COMPARISON_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")
PRECISIONS = ("DEFAULT", "HIGH", "HIGHEST")


def comparison_direction(dialect: str) -> Enum:
    return Enum(dialect, "comparison_direction", COMPARISON_DIRECTIONS)


def comparison_type(dialect: str) -> Enum:
    return Enum(dialect, "comparison_type", COMPARISON_TYPES)


PRECISION_CONFIG = EnumArray("stablehlo", "precision", PRECISIONS)


def enum(dialect: str, name: str, names: str) -> Enum:
    return Enum(dialect, name, names.split())


FFT_TYPE = enum("stablehlo", "fft_type", "FFT IFFT RFFT IRFFT")
RNG_DISTRIBUTION = enum("stablehlo", "rng_distribution", "UNIFORM NORMAL")
RNG_ALGORITHM = enum("stablehlo", "rng_algorithm", "DEFAULT THREE_FRY PHILOX")
TRANSPOSE = enum("stablehlo", "transpose", "NO_TRANSPOSE TRANSPOSE ADJOINT")
CHANNEL_TYPE = IntEnum(["CHANNEL_TYPE_INVALID", "DEVICE_TO_DEVICE", "DEVICE_TO_HOST",
                        "HOST_TO_DEVICE"], bits=64)
API_VERSION = IntEnum(["API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                       "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED",
                       "API_VERSION_TYPED_FFI"])
CHLO_PRECISION_CONFIG = EnumArray("chlo", "precision", PRECISIONS)

# Structs: attributes whose fields are separate builder keywords.
DOT_DIMS = Struct("stablehlo.dot", {f"{s}_{w}_dimensions": I64_ARRAY for w in (
    "batching", "contracting") for s in ("lhs", "rhs")})
DOT_ALGORITHM = Struct("stablehlo.dot_algorithm", {
    "lhs_precision_type": TYPE, "rhs_precision_type": TYPE, "accumulation_type": TYPE,
    "lhs_component_count": I64, "rhs_component_count": I64, "num_primitive_operations": I64,
    "allow_imprecise_accumulation": BOOL})
GATHER_DIMS = Struct("stablehlo.gather", {
    "offset_dims": I64_ARRAY, "collapsed_slice_dims": I64_ARRAY,
    "operand_batching_dims": I64_ARRAY, "start_indices_batching_dims": I64_ARRAY,
    "start_index_map": I64_ARRAY, "index_vector_dim": I64})
SCATTER_DIMS = Struct("stablehlo.scatter", {
    "update_window_dims": I64_ARRAY, "inserted_window_dims": I64_ARRAY,
    "input_batching_dims": I64_ARRAY, "scatter_indices_batching_dims": I64_ARRAY,
    "scatter_dims_to_operand_dims": I64_ARRAY, "index_vector_dim": I64})
CONV_DIMS = ConvStruct("stablehlo.conv", {
    **{f"input_{n}": I64 for n in ("batch_dimension", "feature_dimension")},
    "input_spatial_dimensions": I64_ARRAY,
    **{f"kernel_{n}": I64 for n in ("input_feature_dimension", "output_feature_dimension")},
    "kernel_spatial_dimensions": I64_ARRAY,
    **{f"output_{n}": I64 for n in ("batch_dimension", "feature_dimension")},
    "output_spatial_dimensions": I64_ARRAY})
CHANNEL_HANDLE = Struct("stablehlo.channel_handle", {"handle": I64, "type": CHANNEL_TYPE})
RAGGED_DOT_DIMS = Struct("chlo.ragged_dot", {f"{s}_{w}_dimensions": I64_ARRAY for s, w in (
    ("lhs", "batching"), ("rhs", "batching"), ("lhs", "contracting"), ("rhs", "contracting"),
    ("lhs", "ragged"), ("rhs", "group"))})
