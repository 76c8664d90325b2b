"""The type layer: numpy/ml_dtypes dtypes <-> MLIR element types, tensor types, dense constants.

Also the element-type classes the spec uses in its operand tables (boolean, integer, float,
complex) and small shape helpers shared by the op tables. Integers map to signless MLIR types
(StableHLO's ``si``N is MLIR's ``i``N); unsigned ones to ``ui``N; bool to ``i1``.
"""
from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np
from iree.compiler import ir

from .errors import ArgumentError

DYN = ir.ShapedType.get_dynamic_size()   # a dynamic dimension in ir.RankedTensorType.shape

# (numpy dtype, MLIR element type text). The first entry for a text wins in element_dtype.
_DTYPES: list[tuple[np.dtype, str]] = [(np.dtype(d), t) for d, t in [
    (np.bool_, "i1"),
    (ml_dtypes.int2, "i2"), (ml_dtypes.int4, "i4"),
    (np.int8, "i8"), (np.int16, "i16"), (np.int32, "i32"), (np.int64, "i64"),
    (ml_dtypes.uint2, "ui2"), (ml_dtypes.uint4, "ui4"),
    (np.uint8, "ui8"), (np.uint16, "ui16"), (np.uint32, "ui32"), (np.uint64, "ui64"),
    (ml_dtypes.bfloat16, "bf16"), (np.float16, "f16"), (np.float32, "f32"), (np.float64, "f64"),
    (ml_dtypes.float8_e4m3fn, "f8E4M3FN"), (ml_dtypes.float8_e5m2, "f8E5M2"),
    (ml_dtypes.float8_e4m3fnuz, "f8E4M3FNUZ"), (ml_dtypes.float8_e5m2fnuz, "f8E5M2FNUZ"),
    (ml_dtypes.float8_e4m3b11fnuz, "f8E4M3B11FNUZ"), (ml_dtypes.float8_e3m4, "f8E3M4"),
    (ml_dtypes.float8_e4m3, "f8E4M3"), (ml_dtypes.float8_e8m0fnu, "f8E8M0FNU"),
    (ml_dtypes.float6_e2m3fn, "f6E2M3FN"), (ml_dtypes.float6_e3m2fn, "f6E3M2FN"),
    (ml_dtypes.float4_e2m1fn, "f4E2M1FN"),
    (np.complex64, "complex<f32>"), (np.complex128, "complex<f64>"),
]]
_TEXT_OF = {d: t for d, t in _DTYPES}
_DTYPE_OF: dict[str, np.dtype] = {}
for _d, _t in _DTYPES:
    _DTYPE_OF.setdefault(_t, _d)
for _bits in (8, 16, 32, 64):   # signed MLIR integers read back as numpy signed integers
    _DTYPE_OF[f"si{_bits}"] = np.dtype(f"int{_bits}")
_DTYPE_OF["si4"], _DTYPE_OF["si2"] = np.dtype(ml_dtypes.int4), np.dtype(ml_dtypes.int2)

SUPPORTED_DTYPES: tuple[np.dtype, ...] = tuple(d for d, _ in _DTYPES)


def element_type(dtype, *, context: ir.Context | None = None) -> ir.Type:
    """The MLIR element type of a numpy/ml_dtypes dtype (or of an `ir.Type`, returned as is)."""
    if isinstance(dtype, ir.Type):
        return dtype
    try:
        text = _TEXT_OF[np.dtype(dtype)]
    except (TypeError, KeyError):
        raise ArgumentError(f"no MLIR element type for dtype {dtype!r}; supported: "
                            + ", ".join(str(d) for d in SUPPORTED_DTYPES)) from None
    try:
        return ir.Type.parse(text, context)
    except RuntimeError:
        raise ArgumentError("no MLIR context: call under `with ctx:` (from shlo.context())") \
            from None


def element_dtype(t: ir.Type) -> np.dtype:
    """The numpy/ml_dtypes dtype holding elements of MLIR type `t` (a tensor's element type)."""
    if isinstance(t.maybe_downcast(), ir.ShapedType):
        t = ir.ShapedType(t).element_type
    try:
        return _DTYPE_OF[str(t)]
    except KeyError:
        raise ArgumentError(f"no numpy dtype for MLIR element type {t}") from None


def tensor_type(shape: Sequence[int | None], dtype_or_element_type, *,
                bounds: Sequence[int | None] | None = None,
                context: ir.Context | None = None) -> ir.RankedTensorType:
    """``tensor<shape x E>``; a dimension of None or -1 is dynamic (``?``). `bounds` (one entry
    per dimension, None for none) makes a bounded type ``tensor<?xE, #stablehlo.bounds<4>>``."""
    try:
        dims = [DYN if d is None or d == -1 else _as_int(d) for d in shape]
    except TypeError:
        raise ArgumentError(f"tensor shape must be a sequence of ints, got {shape!r}") from None
    if any(d < 0 and d != DYN for d in dims):
        raise ArgumentError(f"tensor shape must have non-negative dimensions, got {list(shape)}")
    et = element_type(dtype_or_element_type, context=context)
    encoding = None
    if bounds is not None:
        if len(bounds) != len(dims):
            raise ArgumentError(f"bounds {list(bounds)} must have one entry per dimension of "
                                f"{list(shape)}")
        encoding = bounds_attr(bounds, et.context)
    return ir.RankedTensorType.get(dims, et, encoding, loc=ir.Location.unknown(et.context))


def bounds_attr(bounds: Sequence[int | None], context: ir.Context | None = None):
    """``#stablehlo.bounds<4, ?>`` (None or DYN: no bound)."""
    text = ", ".join("?" if b is None or b == DYN else str(int(b)) for b in bounds)
    return ir.Attribute.parse(f"#stablehlo.bounds<{text}>", context)


def bounds(t: ir.Type) -> list[int | None]:
    """The per-dimension bounds of a bounded tensor type (None where there is none)."""
    rt = ir.RankedTensorType(t)
    enc = rt.encoding
    if enc is None or not str(enc).startswith("#stablehlo.bounds<"):
        return [None] * rt.rank
    inner = str(enc)[len("#stablehlo.bounds<"):-1]
    return [None if x.strip() == "?" else int(x) for x in inner.split(",")] if inner else []


def dense_attr(array, tensor_type: ir.Type | None = None) -> ir.DenseElementsAttr:
    """A DenseElementsAttr holding `array` (numpy array or Python scalar/list).

    Without `tensor_type` the type is the array's own shape and dtype. With it, the array is
    cast to the element type's dtype (floats may round; integers and bools must keep their
    values) and must have that shape, or be
    a scalar that fills it (a splat).
    """
    if isinstance(array, ir.Attribute):     # an elements attribute (dense, resource) as is
        try:
            t = array.type
        except (AttributeError, ValueError, TypeError):
            t = None
        if t is None or not is_ranked_tensor(t):
            raise ArgumentError(f"{array} is not an elements attribute")
        if tensor_type is not None and array.type != tensor_type:
            raise ArgumentError(f"constant {array} does not match {tensor_type}")
        return array
    if tensor_type is None:
        arr = np.asarray(array)
        if not arr.dtype.isnative:
            arr = arr.astype(arr.dtype.newbyteorder("="))
        tt = _tensor_type(arr.shape, arr.dtype)
    else:
        tt = as_ranked(tensor_type, "tensor_type")
        if not tt.has_static_shape:
            raise ArgumentError(f"a constant needs a static shape, got {tt}")
        dtype = element_dtype(tt.element_type)
        arr = np.asarray(array)
        if arr.dtype != dtype:
            arr = _cast(arr, dtype, tt)
        if arr.shape != tuple(tt.shape):
            if arr.size != 1 or arr.ndim != 0:
                raise ArgumentError(f"array of shape {list(arr.shape)} does not match {tt}")
    arr = np.ascontiguousarray(arr)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if arr.ndim == 0 and tuple(tt.shape) != ():
        arr = arr.reshape(1)   # one element: DenseElementsAttr.get makes a splat
    return ir.DenseElementsAttr.get(arr, type=tt.element_type, shape=list(tt.shape))


_tensor_type = tensor_type


def _cast(arr: np.ndarray, dtype: np.dtype, tt) -> np.ndarray:
    """Cast to the constant's dtype: floats may round, integers and bools must keep their value."""
    if np.can_cast(arr.dtype, dtype, "safe"):
        return arr.astype(dtype)
    src, dst = _family(arr.dtype), _family(dtype)
    if src == "c" and dst != "c":
        raise ArgumentError(f"cannot cast an array of dtype {arr.dtype} to {tt}: complex values")
    if dst in "fc":
        return arr.astype(dtype)
    with np.errstate(all="ignore"):
        out = arr.astype(dtype)
        exact = np.array_equal(out.astype(np.float64), arr.astype(np.float64))
    if not exact:
        raise ArgumentError(f"cannot cast an array of dtype {arr.dtype} to {tt}: "
                            "values do not fit")
    return out


def _family(dtype: np.dtype) -> str:
    """b(ool), i(nteger), f(loat) or c(omplex), for numpy and ml_dtypes dtypes alike."""
    text = _TEXT_OF.get(dtype, "")
    if dtype.kind in "biufc":
        return "i" if dtype.kind == "u" else dtype.kind
    return "i" if text[:1] in ("i", "u") else "f"


def _as_int(x) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(x)
    return int(x)


# --- element-type classes of the spec ------------------------------------------------------

BOOL, SINT, UINT, FLOAT, COMPLEX, QUANT, OTHER = ("bool", "signed integer", "unsigned integer",
                                                  "floating-point", "complex", "quantized",
                                                  "other")
INT = frozenset({SINT, UINT})
ANY = frozenset({BOOL, SINT, UINT, FLOAT, COMPLEX})      # "tensor" in the spec's tables
FP = frozenset({FLOAT})
FP_C = frozenset({FLOAT, COMPLEX})
INT_FP_C = INT | FP_C
SINT_FP_C = frozenset({SINT, FLOAT, COMPLEX})
BOOL_INT = INT | {BOOL}

_INT_WIDTHS = {2, 4, 8, 16, 32, 64}


def kind(et: ir.Type) -> str:
    """The spec class of a StableHLO element type (OTHER for types StableHLO does not allow)."""
    t = et.maybe_downcast()
    if isinstance(t, ir.IntegerType):
        if t.width == 1:
            return BOOL if t.is_signless else OTHER
        if t.width in _INT_WIDTHS and not t.is_signed:
            return SINT if t.is_signless else UINT
        return OTHER
    if isinstance(t, ir.FloatType):
        return OTHER if isinstance(t, ir.FloatTF32Type) else FLOAT
    if isinstance(t, ir.ComplexType):
        inner = str(t.element_type)
        return COMPLEX if inner in ("f32", "f64") else OTHER
    if str(t).startswith("!quant."):
        return QUANT
    return OTHER


def describe(classes) -> str:
    """'signed integer, floating-point or complex' for a set of classes."""
    order = [BOOL, SINT, UINT, FLOAT, COMPLEX, QUANT]
    names = [c for c in order if c in classes]
    if set(names) >= INT:
        i = names.index(SINT)
        names[i:i + 2] = ["integer"]
    if set(classes) >= ANY:
        return "any"
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def num_bits(et: ir.Type) -> int:
    """Bits per element: a complex type's two halves; a quantized type's storage type."""
    if is_quantized(et):
        return num_bits(quant_params(et).storage_type)
    t = et.maybe_downcast()
    if isinstance(t, ir.ComplexType):
        return 2 * num_bits(t.element_type)
    return t.width


def complex_element_type(et: ir.Type) -> ir.Type:
    """complex<E> -> E; any other type unchanged."""
    t = et.maybe_downcast()
    return t.element_type if isinstance(t, ir.ComplexType) else et


# --- tensors and shapes --------------------------------------------------------------------

def as_ranked(t: ir.Type, what: str = "type") -> ir.RankedTensorType:
    """`t` as an ir.RankedTensorType, or ArgumentError."""
    if not isinstance(t, ir.Type):
        raise ArgumentError(f"{what} must be an ir.Type, got {type(t).__name__}")
    d = t.maybe_downcast()
    if not isinstance(d, ir.RankedTensorType):
        raise ArgumentError(f"{what} must be a ranked tensor type, got {t}")
    return d


def shape(t: ir.Type) -> list[int]:
    return list(ir.RankedTensorType(t).shape)


def rank(t: ir.Type) -> int:
    return ir.RankedTensorType(t).rank


def elem(t: ir.Type) -> ir.Type:
    return ir.RankedTensorType(t).element_type


def same_dim(a: int, b: int) -> bool:
    """Dimensions agree (a dynamic one agrees with anything)."""
    return a == b or a == DYN or b == DYN


def same_shape(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(same_dim(x, y) for x, y in zip(a, b))


def fmt_shape(dims: Sequence[int]) -> str:
    return "[" + ", ".join("?" if d == DYN else str(d) for d in dims) + "]"


def with_shape(t: ir.Type, dims: Sequence[int], element: ir.Type | None = None) -> ir.Type:
    """A tensor type like `t` (same encoding) with other dims and/or element type; bounds
    (one per dimension) are dropped when the rank changes or no dimension stays dynamic."""
    rt = ir.RankedTensorType(t)
    encoding = rt.encoding
    if encoding is not None and "bounds" in str(encoding) and (
            len(dims) != rt.rank or DYN not in dims):
        encoding = None
    return ir.RankedTensorType.get(list(dims), element or rt.element_type, encoding,
                                   loc=ir.Location.unknown(rt.context))


def num_elements(dims: Sequence[int]) -> int | None:
    """The number of elements, or None if some dimension is dynamic."""
    if any(d == DYN for d in dims):
        return None
    return int(np.prod(dims, dtype=np.int64)) if dims else 1


# --- tokens, tuples, futures -----------------------------------------------------------------

def token_type(*, context: ir.Context | None = None) -> ir.Type:
    """``!stablehlo.token``."""
    return ir.Type.parse("!stablehlo.token", context)


def is_token(t: ir.Type) -> bool:
    return str(t) == "!stablehlo.token"


def tuple_type(types: Sequence[ir.Type]) -> ir.Type:
    """``tuple<T0, ..., TN-1>``."""
    return ir.TupleType.get_tuple(list(types))


def is_tuple(t: ir.Type) -> bool:
    return isinstance(t.maybe_downcast(), ir.TupleType)


def tuple_elements(t: ir.Type) -> list[ir.Type]:
    tt = ir.TupleType(t)
    return [tt.get_type(i) for i in range(tt.num_types)]


def future_type(types: Sequence[ir.Type]) -> ir.Type:
    """``!stablehlo.future<T0, ...>``: what async_start returns and async_done waits for."""
    return ir.Type.parse(f"!stablehlo.future<{', '.join(map(str, types))}>", types[0].context)


def is_future(t: ir.Type) -> bool:
    return str(t).startswith("!stablehlo.future<")


def future_elements(t: ir.Type) -> list[ir.Type]:
    inner = str(t)[len("!stablehlo.future<"):-1]
    return [ir.Type.parse(s, t.context) for s in split_top_level(inner)]


def is_ranked_tensor(t: ir.Type) -> bool:
    return isinstance(t.maybe_downcast(), ir.RankedTensorType)


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Split `text` at `sep` outside (), [], {} and <> (a '->' arrow is not a bracket)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}" or (ch == ">" and text[i - 1:i] != "-"):
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    return out + [tail] if tail else out


# --- quantized element types (!quant.uniform) --------------------------------------------------

class QuantParams:
    """The parameters of a ``!quant.uniform`` element type (per-tensor or per-axis)."""

    def __init__(self, storage_type, storage_min, storage_max, expressed_type, scales,
                 zero_points, quantization_dimension):
        self.storage_type = storage_type
        self.storage_min, self.storage_max = storage_min, storage_max
        self.expressed_type = expressed_type
        self.scales, self.zero_points = list(scales), list(zero_points)
        self.quantization_dimension = quantization_dimension     # None: per-tensor

    @property
    def per_axis(self) -> bool:
        return self.quantization_dimension is not None


def quant_type(storage, expressed, scale, zero_point=0, *, axis: int | None = None,
               storage_min: int | None = None, storage_max: int | None = None,
               context: ir.Context | None = None) -> ir.Type:
    """A ``!quant.uniform`` element type; per-axis when `axis` is given (then `scale` and
    `zero_point` are sequences, one entry per slice of that axis)."""
    storage = element_type(storage, context=context)
    expressed = element_type(expressed, context=context)
    st = str(storage)
    if storage_min is not None or storage_max is not None:
        lo, hi = _storage_range(storage)
        st += f"<{lo if storage_min is None else storage_min}:" \
              f"{hi if storage_max is None else storage_max}>"
    if axis is None:
        body = f"{st}:{expressed}, {float(scale)!r}:{int(zero_point)}"
    else:
        scales = list(scale)
        zps = list(zero_point) if isinstance(zero_point, (list, tuple, np.ndarray)) \
            else [zero_point] * len(scales)
        pairs = ", ".join(f"{float(s)!r}:{int(z)}" for s, z in zip(scales, zps))
        body = f"{st}:{expressed}:{axis}, {{{pairs}}}"
    try:
        return ir.Type.parse(f"!quant.uniform<{body}>", storage.context)
    except ir.MLIRError as e:
        notes = "; ".join(d.message for d in e.error_diagnostics) or str(e)
        raise ArgumentError(f"invalid quantized type !quant.uniform<{body}>: {notes}") from None


def _storage_range(storage: ir.Type) -> tuple[int, int]:
    t = storage.maybe_downcast()
    w = t.width
    return (0, (1 << w) - 1) if t.is_unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)


def is_quantized(et: ir.Type) -> bool:
    return str(et).startswith("!quant.uniform<")


def quant_params(et: ir.Type) -> QuantParams:
    """Parse a ``!quant.uniform`` element type (its text) into QuantParams."""
    text = str(et)[len("!quant.uniform<"):-1]
    head, _, params = text.partition(", ")
    parts = split_top_level(head, ":")
    storage_text, expressed_text = parts[0], parts[1]
    axis = int(parts[2]) if len(parts) > 2 else None
    ctx = et.context
    lo: int | None = None
    hi: int | None = None
    if "<" in storage_text:
        storage_text, _, rng = storage_text.partition("<")
        lo_text, _, hi_text = rng.rstrip(">").partition(":")
        lo, hi = int(lo_text), int(hi_text)
    if storage_text.startswith("u"):            # printed u8 for the unsigned ui8
        storage_text = "ui" + storage_text[1:]
    storage = ir.Type.parse(storage_text, ctx)
    if lo is None or hi is None:
        lo, hi = _storage_range(storage)
    pairs = split_top_level(params.strip("{}"))
    scales, zps = [], []
    for p in pairs:
        s, _, z = p.partition(":")
        scales.append(float(s))
        zps.append(int(z) if z else 0)
    return QuantParams(storage, lo, hi, ir.Type.parse(expressed_text, ctx), scales, zps, axis)


def with_quant_axis(et: ir.Type, axis: int) -> ir.Type:
    """A per-axis quantized type like `et`, quantized along `axis` instead."""
    p = quant_params(et)
    lo, hi = _storage_range(p.storage_type)
    bounds = {} if (p.storage_min, p.storage_max) == (lo, hi) else {
        "storage_min": p.storage_min, "storage_max": p.storage_max}
    return quant_type(p.storage_type, p.expressed_type, p.scales, p.zero_points, axis=axis,
                      context=et.context, **bounds)


def storage_or_element(et: ir.Type) -> ir.Type:
    """A quantized type's storage type; any other element type unchanged."""
    return quant_params(et).storage_type if is_quantized(et) else et


# --- constant operands -------------------------------------------------------------------------

def constant_values(value: ir.Value):
    """The numpy array of `value` when a constant op (stablehlo/chlo/arith) defines it, else None.
    Dynamism ops use it to infer static result shapes from shape operands."""
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)):
        return None
    op = owner.operation
    if op.name not in ("stablehlo.constant", "chlo.constant", "arith.constant"):
        return None
    shaped = value.type.maybe_downcast()
    if isinstance(shaped, ir.ShapedType) and isinstance(shaped.element_type.maybe_downcast(),
                                                        ir.ComplexType):
        return None         # (reading a complex dense attribute raises in the bindings)
    attr = op.attributes["value"]
    if not isinstance(attr.maybe_downcast(), ir.DenseIntElementsAttr):
        return None
    dense = ir.DenseIntElementsAttr(attr)
    n = ir.ShapedType(dense.type)
    if dense.is_splat:
        return np.full(list(n.shape), dense.get_splat_value().value, dtype=np.int64)
    return np.array([dense[i] for i in range(len(dense))], dtype=np.int64).reshape(
        list(n.shape))
