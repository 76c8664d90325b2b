"""Shape ops: Broadcast, BroadcastInDim, Collapse, Concatenate (ConcatInDim), Pad (negative
edges become a slice), Reshape (all three seed forms), DynamicReshape, Rev, Slice, SliceInDim,
DynamicSlice, DynamicUpdateSlice, Transpose, GetDimensionSize and SetDimensionSize."""
from __future__ import annotations

import numpy as np

from shlo.dialect import stablehlo
from shlo.dialect import types as T

from .builder import XlaBuilder, XlaOp
from .errors import fail
from .operands import array, builder_of, ints, op_list
from .shapes import Shape


def Broadcast(operand: XlaOp, broadcast_sizes) -> XlaOp:
    """XLA Broadcast: new dimensions of `broadcast_sizes` are added on the left (major side)."""
    b = builder_of("Broadcast", operand)
    x = array("Broadcast", operand)
    sizes = ints("Broadcast", "broadcast_sizes", broadcast_sizes)
    r = T.rank(x.type)
    with b.emit("Broadcast"):
        return b.wrap(stablehlo.broadcast_in_dim(
            x, broadcast_dimensions=list(range(len(sizes), len(sizes) + r)),
            result_type=T.with_shape(x.type, sizes + T.shape(x.type))))


def BroadcastInDim(operand: XlaOp, out_dim_size, broadcast_dimensions) -> XlaOp:
    """XLA BroadcastInDim: operand dimension i becomes result dimension broadcast_dimensions[i]."""
    b = builder_of("BroadcastInDim", operand)
    x = array("BroadcastInDim", operand)
    sizes = ints("BroadcastInDim", "out_dim_size", out_dim_size)
    bd = ints("BroadcastInDim", "broadcast_dimensions", broadcast_dimensions)
    with b.emit("BroadcastInDim"):
        return b.wrap(stablehlo.broadcast_in_dim(x, broadcast_dimensions=bd,
                                                 result_type=T.with_shape(x.type, sizes)))


def _reshape(b: XlaBuilder, op: str, x, sizes: list[int]) -> XlaOp:
    n = T.num_elements(T.shape(x.type))
    if T.num_elements(sizes) != n:
        fail(op, f"cannot reshape {Shape.from_ir(x.type)} ({n} elements) to {sizes}",
             "the element count is unchanged")
    with b.emit(op):
        return b.wrap(stablehlo.reshape(x, result_type=T.with_shape(x.type, sizes)))


def Collapse(operand: XlaOp, dimensions) -> XlaOp:
    """XLA Collapse: replace consecutive, in-order `dimensions` by one dimension."""
    b = builder_of("Collapse", operand)
    x = array("Collapse", operand)
    dims = ints("Collapse", "dimensions", dimensions)
    shape = T.shape(x.type)
    rule = "dimensions are a consecutive, in-order subset of the operand's dimensions"
    if not dims or dims != list(range(dims[0], dims[0] + len(dims))) or dims[0] < 0 \
            or dims[-1] >= len(shape):
        fail("Collapse", f"dimensions {dims} of a rank-{len(shape)} operand", rule)
    merged = int(np.prod([shape[d] for d in dims], dtype=np.int64))
    return _reshape(b, "Collapse", x, shape[:dims[0]] + [merged] + shape[dims[-1] + 1:])


def Reshape(operand, dimensions=None, new_sizes=None) -> XlaOp:
    """XLA Reshape in the seeds' three forms: Reshape(operand, new_sizes) (the newest seed calls
    the sizes `dimensions`), Reshape(operand, dimensions, new_sizes) (dimensions: the order in
    which the operand's dimensions are read, a transpose first), and Reshape(shape, operand)."""
    if isinstance(operand, Shape):
        shape, operand = operand, dimensions
        b = builder_of("Reshape", operand)
        if not shape.is_array() or shape.element_type() != operand.shape().element_type():
            fail("Reshape", f"shape {shape} must be an array of the operand's element type "
                 f"({operand.shape()})")
        return _reshape(b, "Reshape", array("Reshape", operand), list(shape.dimensions()))
    b = builder_of("Reshape", operand)
    x = array("Reshape", operand)
    if new_sizes is None:
        if dimensions is None:
            fail("Reshape", "needs the new dimension sizes")
        return _reshape(b, "Reshape", x, ints("Reshape", "new_sizes", dimensions))
    order = ints("Reshape", "dimensions", dimensions)
    if sorted(order) != list(range(T.rank(x.type))):
        fail("Reshape", f"dimensions {order} must be a permutation of the operand's "
             f"{T.rank(x.type)} dimensions", "dimensions lists every operand dimension once")
    if order != sorted(order):
        x = Transpose(operand, order).value
    return _reshape(b, "Reshape", x, ints("Reshape", "new_sizes", new_sizes))


def DynamicReshape(operand: XlaOp, dim_sizes, new_size_bounds, dims_are_dynamic) -> XlaOp:
    """XLA DynamicReshape: sizes from S32 scalars `dim_sizes`; a dimension flagged in
    `dims_are_dynamic` is dynamic (`?`) in the result, the others have their new_size_bounds
    (StableHLO's dynamic_reshape infers no bounds, so the bounds are not recorded)."""
    sizes = op_list("DynamicReshape", "dim_sizes", dim_sizes)
    b = builder_of("DynamicReshape", operand, sizes)
    x = array("DynamicReshape", operand)
    bounds = ints("DynamicReshape", "new_size_bounds", new_size_bounds)
    dynamic = [bool(d) for d in dims_are_dynamic]
    if not len(sizes) == len(bounds) == len(dynamic):
        fail("DynamicReshape", f"dim_sizes ({len(sizes)}), new_size_bounds ({len(bounds)}) and "
             f"dims_are_dynamic ({len(dynamic)}) differ in length", "one entry per result "
             "dimension")
    with b.emit("DynamicReshape"):
        parts = []
        for i, s in enumerate(sizes):
            v = array("DynamicReshape", s, f"dim_sizes[{i}]")
            if T.rank(v.type) != 0:
                fail("DynamicReshape", f"dim_sizes[{i}] must be a scalar, got {s.shape()}")
            parts.append(stablehlo.reshape(v, result_type=T.with_shape(v.type, [1])))
        shape = stablehlo.concatenate(parts, dimension=0) if parts else \
            stablehlo.constant(np.zeros([0], np.int32))
        return b.wrap(stablehlo.dynamic_reshape(x, shape, result_type=T.tensor_type(
            [None if dyn else n for n, dyn in zip(bounds, dynamic)], T.elem(x.type))))


def Concatenate(operands, dimension: int) -> XlaOp:
    """XLA Concatenate(operands..., dimension): same shapes except in `dimension`."""
    ops = op_list("Concatenate", "operands", operands)
    b = builder_of("Concatenate", ops)
    with b.emit("Concatenate"):
        return b.wrap(stablehlo.concatenate([array("Concatenate", o, f"operands[{i}]")
                                             for i, o in enumerate(ops)], dimension=dimension))


def ConcatInDim(*args, **kwargs) -> XlaOp:
    """XLA's C++ ConcatInDim(builder, operands, dimension); the builder may be left out."""
    if args and isinstance(args[0], XlaBuilder):
        args = args[1:]
    return Concatenate(*args, **kwargs)


def Pad(operand: XlaOp, padding_value: XlaOp, padding_config) -> XlaOp:
    """XLA Pad: per dimension (low, high, interior); interior padding first, then the edges;
    a negative edge removes elements (built as pad, then slice)."""
    b = builder_of("Pad", operand, padding_value)
    x, v = array("Pad", operand), array("Pad", padding_value, "padding_value")
    try:
        config = [(int(lo), int(hi), int(mid)) for lo, hi, mid in padding_config]
    except (TypeError, ValueError):
        fail("Pad", f"padding_config must be (low, high, interior) per dimension, got "
             f"{padding_config!r}")
    shape = T.shape(x.type)
    if len(config) != len(shape):
        fail("Pad", f"padding_config has {len(config)} entries for a rank-{len(shape)} operand",
             "one (low, high, interior) per dimension")
    for d, (lo, hi, mid) in enumerate(config):
        if mid < 0:
            fail("Pad", f"interior padding {mid} of dimension {d} is negative",
                 "interior padding is non-negative")
        if shape[d] + max(shape[d] - 1, 0) * mid + lo + hi < 0:
            fail("Pad", f"dimension {d} of size {shape[d]} padded by ({lo}, {hi}, {mid}) "
                 "would have a negative size", "the padded size is non-negative")
    with b.emit("Pad"):
        y = stablehlo.pad(x, v, edge_padding_low=[max(lo, 0) for lo, _, _ in config],
                          edge_padding_high=[max(hi, 0) for _, hi, _ in config],
                          interior_padding=[mid for _, _, mid in config])
        if any(lo < 0 or hi < 0 for lo, hi, _ in config):
            padded = T.shape(y.type)
            y = stablehlo.slice(y, start_indices=[max(-lo, 0) for lo, _, _ in config],
                                limit_indices=[n - max(-hi, 0) for n, (_, hi, _) in
                                               zip(padded, config)],
                                strides=[1] * len(config))
        return b.wrap(y)


def Rev(operand: XlaOp, dimensions) -> XlaOp:
    """XLA Rev: reverse the order of elements along `dimensions`."""
    b = builder_of("Rev", operand)
    with b.emit("Rev"):
        return b.wrap(stablehlo.reverse(array("Rev", operand),
                                        dimensions=ints("Rev", "dimensions", dimensions)))


def Slice(operand: XlaOp, start_indices, limit_indices, strides=None) -> XlaOp:
    """XLA Slice: [start, limit) with strides (default 1) per dimension."""
    b = builder_of("Slice", operand)
    x = array("Slice", operand)
    strides = [1] * T.rank(x.type) if strides is None else strides
    with b.emit("Slice"):
        return b.wrap(stablehlo.slice(x, start_indices=ints("Slice", "start_indices",
                                                            start_indices),
                                      limit_indices=ints("Slice", "limit_indices", limit_indices),
                                      strides=ints("Slice", "strides", strides)))


def SliceInDim(operand: XlaOp, start_index: int, limit_index: int, stride: int,
               dimno: int) -> XlaOp:
    """XLA SliceInDim: Slice along dimension `dimno` only."""
    shape = list(operand.shape().dimensions()) if isinstance(operand, XlaOp) else []
    if not -len(shape) <= dimno < len(shape):
        fail("SliceInDim", f"dimno {dimno} is out of range for {operand.shape()}")
    dimno %= len(shape)
    start, limit, strides = [0] * len(shape), list(shape), [1] * len(shape)
    start[dimno], limit[dimno], strides[dimno] = start_index, limit_index, stride
    return Slice(operand, start, limit, strides)


def _start_indices(op: str, start_indices, rank: int) -> list:
    """Scalar start indices: a list of scalar XlaOps, or one rank-1 XlaOp (the older seeds)."""
    if isinstance(start_indices, XlaOp) and start_indices.shape().is_array() and \
            start_indices.shape().rank() == 1:
        v = start_indices.value
        n = T.shape(v.type)[0]
        scalar = T.with_shape(v.type, [])
        return [stablehlo.reshape(stablehlo.slice(v, start_indices=[i], limit_indices=[i + 1],
                                                  strides=[1]), result_type=scalar)
                for i in range(n)]
    return [array(op, s, f"start_indices[{i}]") for i, s in
            enumerate(op_list(op, "start_indices", start_indices))]


def DynamicSlice(operand: XlaOp, start_indices, slice_sizes) -> XlaOp:
    """XLA DynamicSlice: start indices are clamped so the slice stays in bounds."""
    b = builder_of("DynamicSlice", operand, start_indices)
    x = array("DynamicSlice", operand)
    with b.emit("DynamicSlice"):
        starts = _start_indices("DynamicSlice", start_indices, T.rank(x.type))
        return b.wrap(stablehlo.dynamic_slice(x, starts, slice_sizes=ints(
            "DynamicSlice", "slice_sizes", slice_sizes)))


def DynamicUpdateSlice(operand: XlaOp, update: XlaOp, start_indices) -> XlaOp:
    """XLA DynamicUpdateSlice: `update` written at (clamped) start indices."""
    b = builder_of("DynamicUpdateSlice", operand, update, start_indices)
    x = array("DynamicUpdateSlice", operand)
    with b.emit("DynamicUpdateSlice"):
        starts = _start_indices("DynamicUpdateSlice", start_indices, T.rank(x.type))
        return b.wrap(stablehlo.dynamic_update_slice(x, array("DynamicUpdateSlice", update,
                                                              "update"), starts))


def Transpose(operand: XlaOp, permutation) -> XlaOp:
    """XLA Transpose: result dimension i is operand dimension permutation[i]."""
    b = builder_of("Transpose", operand)
    with b.emit("Transpose"):
        return b.wrap(stablehlo.transpose(array("Transpose", operand),
                                          permutation=ints("Transpose", "permutation",
                                                           permutation)))


def GetDimensionSize(operand: XlaOp, dimension: int) -> XlaOp:
    """XLA GetDimensionSize: the (runtime) size of a dimension as an S32 scalar."""
    b = builder_of("GetDimensionSize", operand)
    with b.emit("GetDimensionSize"):
        return b.wrap(stablehlo.get_dimension_size(array("GetDimensionSize", operand),
                                                   dimension=dimension))


def SetDimensionSize(operand: XlaOp, val: XlaOp, dimension: int) -> XlaOp:
    """XLA SetDimensionSize: the dimension becomes dynamic, of size `val`, bounded by its size."""
    b = builder_of("SetDimensionSize", operand, val)
    with b.emit("SetDimensionSize"):
        return b.wrap(stablehlo.set_dimension_size(array("SetDimensionSize", operand),
                                                   array("SetDimensionSize", val, "val"),
                                                   dimension=dimension))


OPS = dict(Broadcast=Broadcast, BroadcastInDim=BroadcastInDim, Collapse=Collapse,
           Reshape=Reshape, DynamicReshape=DynamicReshape, Concatenate=Concatenate,
           ConcatInDim=ConcatInDim, Pad=Pad, Rev=Rev, Slice=Slice, SliceInDim=SliceInDim,
           DynamicSlice=DynamicSlice, DynamicUpdateSlice=DynamicUpdateSlice, Transpose=Transpose,
           GetDimensionSize=GetDimensionSize, SetDimensionSize=SetDimensionSize)
