"""Ops that make values from nothing or regroup them: Parameter, Constant, ConstantLiteral,
Iota, Tuple and GetTupleElement (tuples are Python-side groups of XlaOps, see builder.py)."""
from __future__ import annotations

import numpy as np

from shlo.dialect import stablehlo

from .builder import XlaBuilder, XlaOp
from .errors import fail
from .operands import as_builder, builder_of, op_list
from .shapes import XLA_NAME, Shape

def Parameter(builder: XlaBuilder, number: int, shape: Shape, name: str = "",
              replicated_at_leaf_buffers=None) -> XlaOp:
    """XLA Parameter(b, number, shape, name): argument `number` of the computation."""
    return as_builder("Parameter", builder).parameter(number, shape, name)


def _literal(value) -> np.ndarray:
    """A numpy array for a literal: Python numbers (also in lists) become PRED, S32, F32 or C64,
    numpy arrays and scalars keep theirs."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    try:
        arr = np.asarray(value)
    except ValueError:
        fail("Constant", "the literal is ragged: nested lists must be rectangular")
    kinds = {"b": np.bool_, "i": np.int32, "u": np.int32, "f": np.float32, "c": np.complex64}
    if arr.dtype.kind not in kinds:
        fail("Constant", f"the literal must hold numbers or booleans, got {arr.dtype} values")
    out: np.ndarray = arr.astype(kinds[arr.dtype.kind])
    if arr.dtype.kind in "iu" and not np.array_equal(out, arr):
        fail("Constant", "a Python int does not fit S32; pass a numpy array of the dtype wanted")
    return out


def Constant(builder: XlaBuilder, literal) -> XlaOp:
    """XLA Constant(b, literal): a numpy array or scalar (its dtype kept), or Python numbers
    (bool -> PRED, int -> S32, float -> F32, complex -> C64), possibly in nested lists."""
    b = as_builder("Constant", builder)
    arr = _literal(literal)
    if arr.dtype not in XLA_NAME:
        fail("Constant", f"no XLA element type for dtype {arr.dtype}")
    with b.emit("Constant"):
        return b.wrap(stablehlo.constant(arr))


ConstantLiteral = Constant


def Iota(builder: XlaBuilder, shape, iota_dimension: int) -> XlaOp:
    """XLA Iota(b, shape, iota_dimension), or Iota(b, element_type, size) for a vector."""
    b = as_builder("Iota", builder)
    if not isinstance(shape, Shape):
        shape = Shape.array_shape(shape, [iota_dimension])
        iota_dimension = 0
    if not shape.is_array():
        fail("Iota", f"shape must be an array shape, got {shape}")
    with b.emit("Iota"):
        return b.wrap(stablehlo.iota(iota_dimension=iota_dimension, result_type=shape.ir_type()))


def Tuple(*args) -> XlaOp:
    """XLA Tuple(elements) (or Tuple(b, elements), as in C++; needed for an empty tuple)."""
    if args and isinstance(args[0], XlaBuilder):
        b, rest = args[0], args[1:]
    else:
        b, rest = None, args
    if len(rest) != 1:
        fail("Tuple", "takes one list of XlaOps: Tuple([a, b, ...])")
    elements = op_list("Tuple", "elements", rest[0])
    if b is None:
        b = builder_of("Tuple", elements)
    elif elements and builder_of("Tuple", elements) is not b:
        fail("Tuple", "the elements belong to another builder")
    return b.tuple_of(elements)


def GetTupleElement(tuple_data: XlaOp, index: int) -> XlaOp:
    """XLA GetTupleElement(tuple_data, index): element `index` of a tuple."""
    b = builder_of("GetTupleElement", tuple_data)
    elements = tuple_data._elements
    if elements is None:
        fail("GetTupleElement", f"tuple_data must be a tuple, got {tuple_data.shape()}")
    n = len(elements)
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < n:
        fail("GetTupleElement", f"index {index!r} is out of range for a {n}-tuple",
             "0 <= index < the tuple's size")
    out = elements[int(index)]
    b._last = out
    return out



OPS = dict(Parameter=Parameter, Constant=Constant, ConstantLiteral=ConstantLiteral, Iota=Iota,
           Tuple=Tuple, GetTupleElement=GetTupleElement)
