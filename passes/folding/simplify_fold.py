"""Constant folding for shlo-simplify: one StableHLO op on constant operands, in numpy.

`fold(op, limit)` returns the op's result as a numpy array (the result's own dtype and shape),
or None when the op is left alone: an operand is not a `stablehlo.constant`, an element type is
not one numpy holds exactly (FOLDABLE), the result has more than `limit` elements or is not a
static tensor type, or the spec leaves the value to the implementation (integer division by
zero and INT_MIN / -1, out-of-range float->int and int->int converts).

Floats are computed in their own type: numpy's float32/float64 natively; numpy's float16 and
ml_dtypes' bfloat16 compute + - * / in f32 and round to their type, the same result as one
rounding (f32 has 24 >= 2p + 2 bits). Where a cast would round twice (ml_dtypes casts
f64 -> bf16 through f32) it rounds to odd first. Integers wrap (two's complement).
"""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np
from iree.compiler import ir

from shlo.dialect.attributes import enum_name
from shlo.dialect.types import element_dtype
from ..shapes.refine_fold import FOLDERS as _SHAPE_FOLDERS, ints

FOLDABLE = frozenset({"i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
                      "f16", "bf16", "f32", "f64"})
BF16 = np.dtype(ml_dtypes.bfloat16)
FLOATS = frozenset(np.dtype(d) for d in (np.float16, ml_dtypes.bfloat16, np.float32, np.float64))
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


# ---- reading and typing constants ---------------------------------------------------------

def plain_static(t: ir.Type) -> ir.RankedTensorType | None:
    """`t` as a static tensor type without an encoding (what a folded constant gets), or None."""
    t = t.maybe_downcast()
    if isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.encoding is None:
        return t
    return None


def array_of(value: ir.Value) -> np.ndarray | None:
    """The elements of a `stablehlo.constant` of a FOLDABLE element type, or None."""
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or owner.name != "stablehlo.constant":
        return None
    t = plain_static(value.type)
    if t is None or str(t.element_type) not in FOLDABLE:
        return None
    dtype, shape = element_dtype(t.element_type), list(t.shape)
    attr = ir.DenseElementsAttr(owner.operation.attributes["value"])
    if dtype == BF16:                      # the bindings have no buffer for bf16: read the text
        arr = _bf16_from_text(str(attr))
    elif attr.is_splat:                    # one element, not a tensor of copies
        one = ir.RankedTensorType.get([1], t.element_type)
        arr = np.array(ir.DenseElementsAttr.get_splat(one, attr.get_splat_value()).maybe_downcast())
    else:
        arr = np.array(attr.maybe_downcast(), copy=True)
    if arr is None or arr.dtype != dtype:
        return None
    size = int(np.prod(shape, dtype=np.int64))
    if arr.size == 1 and size != 1:        # a splat: a read-only broadcast view
        return np.broadcast_to(arr.reshape(()), shape)
    return arr.reshape(shape) if arr.size == size else None


_DENSE = re.compile(r"dense<(.*)>\s*:", re.S)
_LITERAL = re.compile(r"0x[0-9A-Fa-f]+|[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def _bf16_from_text(text: str) -> np.ndarray | None:
    found = _DENSE.match(text)
    if found is None:
        return None
    body = found.group(1).strip()
    if body.startswith('"0x'):                           # raw little-endian bytes
        return np.frombuffer(bytes.fromhex(body[3:-1]), "<u2").astype(np.uint16).view(BF16)
    tokens = _LITERAL.findall(body)
    hexes = np.array([tok[:2].lower() == "0x" for tok in tokens], bool)
    decimal = to_float(np.array([0.0 if h else float(t) for t, h in zip(tokens, hexes)]), BF16)
    bits = [int(t, 16) if h else 0 for t, h in zip(tokens, hexes)]
    return np.where(hexes, np.array(bits, np.uint16), decimal.view(np.uint16)).view(BF16)


# ---- element kinds, bits and conversions --------------------------------------------------

def kind(dtype: np.dtype) -> str:
    """'b' (i1), 'i' (signed), 'u' (unsigned) or 'f' (float)."""
    return "f" if dtype in FLOATS else dtype.kind


def unsigned_bits(x: np.ndarray) -> np.ndarray:
    """The bits of each element as an unsigned integer of the same width."""
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def signed_bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.dtype(f"i{x.dtype.itemsize}"))


def width(dtype: np.dtype) -> int:
    return 8 * dtype.itemsize


def to_float(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Floats (or integers exact in f64) rounded once to nearest-even into float `dtype`."""
    if dtype == BF16 and x.dtype == _F64:
        with np.errstate(all="ignore"):
            r = x.astype(_F32)                 # to f32 rounding to odd, then one rounding to bf16
        inexact = (r.astype(_F64) != x) & ~np.isnan(x)
        toward_zero = np.where(np.abs(r.astype(_F64)) > np.abs(x),
                               np.nextafter(r, np.float32(0)), r)
        odd = unsigned_bits(np.ascontiguousarray(toward_zero, _F32)) | np.uint32(1)
        x = np.where(inexact, odd.view(_F32), r).reshape(r.shape)
    elif x.dtype in (BF16, np.dtype(np.float16)) and dtype in (BF16, np.dtype(np.float16)):
        x = x.astype(_F32)                 # exact; the cast below rounds once
    return x.astype(dtype)


# ---- elementwise folders: fn(op, arrays, result dtype) -> array or None ------------------

def _ufunc(fn):
    """A numpy function of the operands (integers wrap, floats round in their own type)."""
    return lambda op, args, dtype: fn(*args)


def _div(op, args, dtype):
    a, b = args
    if kind(dtype) == "f":
        return np.divide(a, b)
    if not _safe_divisor(a, b, dtype):
        return None
    q = a // b                             # floor; make it truncate toward zero
    return np.where(((a % b) != 0) & ((a < 0) != (b < 0)), q + dtype.type(1), q)


def _rem(op, args, dtype):
    a, b = args
    if kind(dtype) == "f":
        return np.fmod(a.astype(_F64), b.astype(_F64)).astype(dtype)   # exact in any type
    return np.fmod(a, b) if _safe_divisor(a, b, dtype) else None


def _safe_divisor(a, b, dtype) -> bool:
    """No division by zero and no INT_MIN / -1 (their results are the implementation's)."""
    if kind(dtype) not in "iu" or np.any(b == 0):
        return False
    return kind(dtype) == "u" or not np.any((a == np.iinfo(dtype).min) & (b == -1))


def _negate(op, args, dtype):
    (x,) = args
    if kind(dtype) == "f":
        sign = np.array(1 << (width(dtype) - 1)).astype(unsigned_bits(x).dtype)
        return (unsigned_bits(x) ^ sign).view(dtype)
    return None if kind(dtype) == "b" else np.negative(x)


def _abs(op, args, dtype):
    (x,) = args
    if kind(dtype) == "f":
        mask = np.array((1 << (width(dtype) - 1)) - 1).astype(unsigned_bits(x).dtype)
        return (unsigned_bits(x) & mask).view(dtype)
    return None if kind(dtype) == "b" else np.abs(x)


def _sign(op, args, dtype):
    (x,) = args
    if kind(dtype) == "b":
        return None
    one = dtype.type(1)
    if kind(dtype) == "u":
        return np.where(x > 0, one, dtype.type(0))
    return np.where(x > 0, one, np.where(x < 0, -one, x))     # keeps +-0 and NaN


def pick_max(a, b, greater: bool):
    """The spec's maximum (greater) or minimum: NaN wins, -0 < +0 for floats."""
    if kind(a.dtype) != "f":
        return np.maximum(a, b) if greater else np.minimum(a, b)
    wa, wb = a.astype(_F64), b.astype(_F64)
    beats = wa > wb if greater else wa < wb
    tie = (wa == wb) & (np.signbit(wb) if greater else ~np.signbit(wb))
    return np.where(beats | tie | np.isnan(wa), a, b)


def _maximum(op, args, dtype):
    a, b = args
    return pick_max(a, b, True)


def _minimum(op, args, dtype):
    a, b = args
    return pick_max(a, b, False)


def _clamp(op, args, dtype):
    lo, x, hi = args
    return pick_max(pick_max(x, lo, True), hi, False)


def _shift(how: str):
    def fold(op, args, dtype):
        a, b = args
        if kind(dtype) not in "iu":
            return None
        w = width(dtype)
        amount = unsigned_bits(b)          # a negative amount is a huge one (APInt semantics)
        big = amount >= w
        amount = np.minimum(amount, w - 1).astype(unsigned_bits(a).dtype)
        if how == "left":
            out = unsigned_bits(a) << amount
        elif how == "logical":
            out = unsigned_bits(a) >> amount
        else:
            signed = signed_bits(a)                             # >= w: sign fill
            return (signed >> amount.astype(signed.dtype)).view(dtype)
        return np.where(big, 0, out).astype(out.dtype).view(dtype)
    return fold


_DIRECTIONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
               "GT": np.greater, "GE": np.greater_equal}


def _compare(op, args, dtype):
    a, b = args
    direction = enum_name(op.attributes["comparison_direction"])
    k = kind(a.dtype)
    default = {"f": "FLOAT", "i": "SIGNED"}.get(k, "UNSIGNED")
    ctype = (enum_name(op.attributes["compare_type"]) if "compare_type" in op.attributes
             else default)
    if ctype in ("FLOAT", "TOTALORDER") and k == "f":
        result = _DIRECTIONS[direction](a.astype(_F64), b.astype(_F64))
        if ctype == "TOTALORDER":         # see _total_order_key
            keys = _DIRECTIONS[direction](_total_order_key(a), _total_order_key(b))
            return result if np.array_equal(keys, result) else None
        return result
    if ctype == "SIGNED" and k in "iu":
        a, b = signed_bits(a), signed_bits(b)
    elif ctype == "UNSIGNED" and k in "iub":
        a, b = unsigned_bits(a), unsigned_bits(b)
    else:
        return None
    return _DIRECTIONS[direction](a, b)


def _total_order_key(x: np.ndarray) -> np.ndarray:
    """Signed integers ordered as IEEE totalOrder orders the floats (XLA compares these). The
    spec's words ("totalOrder and compareQuietEqual") may also read as the float order for
    -0 == +0 and NaN == NaN: a TOTALORDER compare is folded only where both readings agree."""
    s = signed_bits(x)
    magnitude = np.array((1 << (width(x.dtype) - 1)) - 1).astype(s.dtype)
    return s ^ ((s >> (width(x.dtype) - 1)) & magnitude)


def _select(op, args, dtype):
    return np.where(*args)


def _convert(op, args, dtype):
    (x,) = args
    src, dst = kind(x.dtype), kind(dtype)
    if dst == "b":
        return x != 0                                  # NaN is nonzero: true
    if src == "b":
        return x.astype(dtype)
    if dst == "f" and src == "f":
        return to_float(x, dtype)
    if dst == "f":
        if dtype == BF16:                              # one rounding: through f64 when exact
            if np.any(np.abs(x.astype(_F64)) > 2.0 ** 53):
                return None
            return to_float(x.astype(_F64), dtype)
        return x.astype(dtype)     # one C cast (or via f32 to f16: exact up to 2^24 > f16 max)
    if src == "f":
        t = np.trunc(x.astype(_F64))
        info = np.iinfo(dtype)
        if not np.all(np.isfinite(t) & (t >= float(info.min)) & (t < float(info.max) + 1.0)):
            return None                                # out of range: the implementation's
        return t.astype(dtype)
    out = x.astype(dtype)                              # int -> int only when it fits
    fits = (out.astype(x.dtype) == x) & ((out < 0) == (x < 0))
    return out if np.all(fits) else None


def _shape_op(name: str):
    fold = _SHAPE_FOLDERS[name]
    return lambda op, args, dtype: fold(op, args)


def _reverse(op, args, dtype):
    return np.flip(args[0], tuple(ints(op, "dimensions")))


def _pad(op, args, dtype):
    x, value = args
    lows, highs = ints(op, "edge_padding_low"), ints(op, "edge_padding_high")
    interiors = ints(op, "interior_padding") if "interior_padding" in op.attributes \
        else [0] * x.ndim
    dilated = [(n - 1) * (i + 1) + 1 if n else 0 for n, i in zip(x.shape, interiors)]
    grown = [n + max(lo, 0) + max(hi, 0) for n, lo, hi in zip(dilated, lows, highs)]
    out = np.full(grown, value.reshape(()), dtype)
    out[tuple(slice(max(lo, 0), max(lo, 0) + n, i + 1)
              for lo, n, i in zip(lows, dilated, interiors))] = x
    return out[tuple(slice(max(-lo, 0), g - max(-hi, 0)) for lo, hi, g in zip(lows, highs, grown))]


# op name -> fn(op, operand arrays, result dtype) -> array or None. Not folded on purpose:
# iota (a constant is larger than the op), ops of other element types (see FOLDABLE).
FOLDERS = {
    "stablehlo.add": _ufunc(np.add), "stablehlo.subtract": _ufunc(np.subtract),
    "stablehlo.multiply": _ufunc(np.multiply), "stablehlo.divide": _div,
    "stablehlo.remainder": _rem, "stablehlo.negate": _negate, "stablehlo.abs": _abs,
    "stablehlo.sign": _sign,
    "stablehlo.maximum": _maximum, "stablehlo.minimum": _minimum,
    "stablehlo.and": _ufunc(np.bitwise_and), "stablehlo.or": _ufunc(np.bitwise_or),
    "stablehlo.xor": _ufunc(np.bitwise_xor), "stablehlo.not": _ufunc(np.invert),
    "stablehlo.shift_left": _shift("left"),
    "stablehlo.shift_right_logical": _shift("logical"),
    "stablehlo.shift_right_arithmetic": _shift("arithmetic"),
    "stablehlo.compare": _compare, "stablehlo.select": _select, "stablehlo.clamp": _clamp,
    "stablehlo.convert": _convert,
    "stablehlo.reshape": _shape_op("stablehlo.reshape"),
    "stablehlo.broadcast_in_dim": _shape_op("stablehlo.broadcast_in_dim"),
    "stablehlo.transpose": _shape_op("stablehlo.transpose"),
    "stablehlo.slice": _shape_op("stablehlo.slice"),
    "stablehlo.concatenate": _shape_op("stablehlo.concatenate"),
    "stablehlo.reverse": _reverse, "stablehlo.pad": _pad,
}


def fold(op: ir.Operation, limit: int) -> np.ndarray | None:
    """The value of `op`'s one result when FOLDERS folds it and its operands are constants."""
    folder = FOLDERS.get(op.name)
    if folder is None or len(op.results) != 1:
        return None
    t = plain_static(op.results[0].type)
    if t is None or str(t.element_type) not in FOLDABLE:
        return None
    shape = list(t.shape)
    if int(np.prod(shape, dtype=np.int64)) > limit:
        return None
    args = [array_of(v) for v in op.operands]
    if any(a is None for a in args):
        return None
    dtype = element_dtype(t.element_type)
    with np.errstate(all="ignore"):
        out = folder(op, args, dtype)
    if out is None:
        return None
    out = np.asarray(out)
    if out.dtype != dtype or list(out.shape) != shape:
        return None
    return np.ascontiguousarray(out).reshape(shape)      # (it makes 0-d arrays 1-d)
