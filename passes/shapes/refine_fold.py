"""Evaluate shape computations at compile time: the integer value of an SSA value, when it
follows from constants and static dimension sizes through small integer ops.

`evaluate(value)` walks back through the ops that define `value` (a table, op name ->
numpy function) and returns a numpy array, or None when some input is only known at run
time. Only integer and boolean tensors of at most `MAX_ELEMENTS` elements are evaluated:
this is for shapes, start indices and paddings, not for data.
"""
from __future__ import annotations

import numpy as np
from iree.compiler import ir

from shlo.dialect.attributes import enum_name
from shlo.dialect.types import DYN, constant_values, element_dtype

MAX_ELEMENTS = 64
_MAX_DEPTH = 32


def ints(op: ir.Operation, name: str) -> list[int]:
    return [int(x) for x in ir.DenseI64ArrayAttr(op.attributes[name])]


def int_attr(op: ir.Operation, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def _static_shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def _dimension_size(op, _):
    size = _static_shape(op.operands[0])[int_attr(op, "dimension")]
    return None if size == DYN else np.array(size)


def _divide(a, b):
    if np.any(b == 0):
        return None                       # division by zero happens at run time, if at all
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _remainder(a, b):
    return None if np.any(b == 0) else np.fmod(a, b)


_DIRECTIONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
               "GT": np.greater, "GE": np.greater_equal}


def _compare(op, args):
    direction = enum_name(op.attributes["comparison_direction"])
    return _DIRECTIONS[direction](*args)


def _slice(op, args):
    index = tuple(slice(lo, hi, step) for lo, hi, step in zip(
        ints(op, "start_indices"), ints(op, "limit_indices"), ints(op, "strides")))
    return args[0][index]


def _broadcast_in_dim(op, args):
    out = _static_shape(op.results[0])
    dims = ints(op, "broadcast_dimensions")
    shape = [1] * len(out)
    for k, d in enumerate(dims):
        shape[d] = args[0].shape[k]
    return np.broadcast_to(args[0].reshape(shape), out)


def _reshape(op, args):
    shape = _static_shape(op.results[0])
    return None if DYN in shape else args[0].reshape(shape)


def _iota(op, _):
    shape = _static_shape(op.results[0])
    d = int_attr(op, "iota_dimension")
    index = [1] * len(shape)
    index[d] = shape[d]
    return np.broadcast_to(np.arange(shape[d]).reshape(index), shape)


def _elementwise(fn):
    return lambda op, args: fn(*args)


# op name -> fn(op, operand arrays) -> array or None. Operands are int64 or bool arrays.
FOLDERS = {
    "stablehlo.get_dimension_size": _dimension_size,
    "stablehlo.add": _elementwise(np.add), "stablehlo.subtract": _elementwise(np.subtract),
    "stablehlo.multiply": _elementwise(np.multiply), "stablehlo.divide": _elementwise(_divide),
    "stablehlo.remainder": _elementwise(_remainder),
    "stablehlo.maximum": _elementwise(np.maximum), "stablehlo.minimum": _elementwise(np.minimum),
    "stablehlo.negate": _elementwise(np.negative), "stablehlo.abs": _elementwise(np.abs),
    "stablehlo.sign": _elementwise(np.sign),
    "stablehlo.and": _elementwise(np.bitwise_and), "stablehlo.or": _elementwise(np.bitwise_or),
    "stablehlo.xor": _elementwise(np.bitwise_xor),
    "stablehlo.not": _elementwise(np.invert),
    "stablehlo.compare": _compare,
    "stablehlo.select": _elementwise(np.where),
    "stablehlo.convert": lambda op, args: args[0],
    "stablehlo.reshape": _reshape,
    "stablehlo.concatenate": lambda op, args: np.concatenate(args, int_attr(op, "dimension")),
    "stablehlo.slice": _slice,
    "stablehlo.broadcast_in_dim": _broadcast_in_dim,
    "stablehlo.transpose": lambda op, args: np.transpose(args[0], ints(op, "permutation")),
    "stablehlo.iota": _iota,
}


def _small_integer(t: ir.Type) -> bool:
    t = t.maybe_downcast()
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return False
    element = t.element_type
    if not (isinstance(element, ir.IntegerType) or isinstance(element, ir.IndexType)):
        return False
    return int(np.prod(t.shape, dtype=np.int64)) <= MAX_ELEMENTS


def _wrap(array: np.ndarray, t: ir.Type) -> np.ndarray:
    """The values as the result type holds them (integers wrap to the type's width)."""
    element = ir.RankedTensorType(t).element_type
    if isinstance(element, ir.IndexType):
        return array.astype(np.int64)
    dtype = element_dtype(element)
    if dtype == np.bool_:
        return array.astype(bool)
    return array.astype(np.int64).astype(dtype).astype(np.int64)


def evaluate(value: ir.Value, memo: dict | None = None, depth: int = 0) -> np.ndarray | None:
    """The compile-time value of an integer `value` (int64 array; bool for i1), or None."""
    if not _small_integer(value.type) or depth > _MAX_DEPTH:
        return None
    memo = {} if memo is None else memo
    if value in memo:
        return memo[value]
    memo[value] = None
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)):
        return None
    op = owner.operation
    array = constant_values(value)
    if array is not None:
        array = _wrap(array, value.type)
    elif op.name in FOLDERS and len(op.results) == 1:
        args = [evaluate(v, memo, depth + 1) for v in op.operands]
        if any(a is None for a in args):
            return None
        try:
            array = FOLDERS[op.name](op, args)
        except (ValueError, IndexError, TypeError):
            return None
        if array is not None:
            array = _wrap(np.asarray(array), value.type)
            if list(array.shape) != list(ir.RankedTensorType(value.type).shape):
                array = None
    memo[value] = array
    return array
