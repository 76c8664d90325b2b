"""Ops with a reducer or comparator sub-computation: Reduce (variadic), ReduceWindow (and
ReduceWindowWithGeneralPadding), Map, Sort, TopK, Scan, SelectAndScatter (and its
WithGeneralPadding form). Several results come back as a tuple, as in XLA."""
from __future__ import annotations

import numpy as np

from iree.compiler import ir

from shlo.dialect import chlo, stablehlo
from shlo.dialect import types as T

from . import elementwise
from .builder import XlaBuilder, XlaOp
from .computations import apply, region, scalar_shapes
from .errors import fail
from .numbers import make_padding
from .operands import array, builder_of, ints, op_list
from .shapes import Shape


def _operands(op: str, operands, init_values):
    """(builder, operand values, init values) of a variadic reducer op; a leading builder (C++'s
    variadic form) is accepted."""
    if isinstance(operands, XlaBuilder):
        fail(op, "pass the operands first (the builder comes from them)")
    ops = op_list(op, "operands", operands)
    inits = op_list(op, "init_values", init_values)
    if len(ops) != len(inits):
        fail(op, f"{len(ops)} operands but {len(inits)} init_values",
             "one init value per operand")
    b = builder_of(op, ops, inits)
    return (b, [array(op, o, f"operands[{i}]") for i, o in enumerate(ops)],
            [array(op, v, f"init_values[{i}]") for i, v in enumerate(inits)])


def as_result_op(b: XlaBuilder, results) -> XlaOp:
    if isinstance(results, (list, tuple)):
        return b.tuple_of(list(results)) if len(results) != 1 else b.wrap(results[0])
    return b.wrap(results)


def Reduce(operands, init_values, computation, dimensions_to_reduce) -> XlaOp:
    """XLA Reduce(operands..., init_values..., computation, dimensions_to_reduce); N > 1
    operands give an N-tuple. The computation takes N accumulators then N values."""
    b, xs, inits = _operands("Reduce", operands, init_values)
    role = f"{len(xs)} accumulators then {len(xs)} values, scalars"
    with b.emit("Reduce"):
        body = region("Reduce", computation, b, scalar_shapes(inits) * 2, role)
        return as_result_op(b, stablehlo.reduce(xs, inits, dimensions=ints(
            "Reduce", "dimensions_to_reduce", dimensions_to_reduce), body=body))


def ReduceWindowWithGeneralPadding(operands, init_values, computation, window_dimensions,
                                   window_strides, base_dilations=None, window_dilations=None,
                                   padding=None) -> XlaOp:
    """XLA ReduceWindowWithGeneralPadding: padding as (low, high) pairs, with dilations."""
    return _reduce_window("ReduceWindowWithGeneralPadding", operands, init_values, computation,
                          window_dimensions, window_strides, base_dilations, window_dilations,
                          padding)


def ReduceWindow(operands, init_values, computation, window_dimensions, window_strides=None,
                 padding="VALID") -> XlaOp:
    """XLA ReduceWindow(operands..., init_values..., computation, window_dimensions,
    window_strides, padding): padding is xla.Padding.SAME/VALID or (low, high) pairs."""
    return _reduce_window("ReduceWindow", operands, init_values, computation, window_dimensions,
                          window_strides, None, None, padding)


def _reduce_window(op, operands, init_values, computation, window_dimensions, window_strides,
                   base_dilations, window_dilations, padding):
    b, xs, inits = _operands(op, operands, init_values)
    window = ints(op, "window_dimensions", window_dimensions)
    strides = ints(op, "window_strides", window_strides, optional=True) or [1] * len(window)
    base = ints(op, "base_dilations", base_dilations, optional=True)
    wdil = ints(op, "window_dilations", window_dilations, optional=True)
    dims = T.shape(xs[0].type)
    if len(window) != len(dims) or len(strides) != len(dims):
        fail(op, f"window_dimensions {window} and window_strides {strides} need one entry per "
             f"dimension of {len(dims)}", "the window has the operand's rank")
    pad = make_padding(op, [[0, 0]] * len(dims) if padding is None else padding, dims, window,
                       strides, wdil)
    role = f"{len(xs)} accumulators then {len(xs)} values, scalars"
    with b.emit(op):
        body = region(op, computation, b, scalar_shapes(inits) * 2, role)
        return as_result_op(b, stablehlo.reduce_window(
            xs, inits, window_dimensions=window, window_strides=strides, base_dilations=base,
            window_dilations=wdil, padding=pad, body=body))


def Map(operands, computation, dimensions, static_operands=()) -> XlaOp:
    """XLA Map(operands..., computation, dimensions): the scalar computation applied
    element-wise to N operands of one shape."""
    ops = op_list("Map", "operands", operands)
    b = builder_of("Map", ops)
    if static_operands:
        fail("Map", "static_operands are not supported by XLA's Map either; pass them as "
             "operands")
    xs = [array("Map", o, f"operands[{i}]") for i, o in enumerate(ops)]
    with b.emit("Map"):
        body = region("Map", computation, b, scalar_shapes(xs), f"{len(xs)} scalars, one per "
                      "operand")
        return b.wrap(stablehlo.map(xs, dimensions=ints("Map", "dimensions", dimensions),
                                    computation=body))


def _default_comparator(lhs, rhs, *rest):
    return elementwise.OPS["Lt"](lhs, rhs)


def Sort(operands, comparator=None, dimension: int = -1, is_stable: bool = False) -> XlaOp:
    """XLA Sort(operands, comparator, dimension, is_stable): the comparator takes 2N scalars
    (lhs_0, rhs_0, lhs_1, rhs_1, ...) and returns PRED `lhs < rhs`; default: Lt on operand 0.
    N > 1 operands give an N-tuple. A stable sort is made explicit (an index operand breaks
    ties), since backends may ignore is_stable."""
    ops = op_list("Sort", "operands", operands)
    b = builder_of("Sort", ops)
    xs = [array("Sort", o, f"operands[{i}]") for i, o in enumerate(ops)]
    comparator = comparator or _default_comparator
    role = f"2 scalars per operand: {2 * len(xs)}"
    if is_stable and xs:
        rank = T.rank(xs[0].type)
        if not -rank <= dimension < rank:
            fail("Sort", f"dimension {dimension} is out of range for rank {rank}")
        index = _iota_operand(xs, dimension % rank)
        if index is None:        # no operand holds the original positions: add one
            index = len(xs)
            with b.emit("Sort"):
                xs.append(stablehlo.iota(iota_dimension=dimension % rank,
                                         result_type=T.tensor_type(T.shape(xs[0].type),
                                                                   np.int32)))
        comparator = _tie_broken(comparator, len(ops), index, role)
    shapes = [s for s in scalar_shapes(xs) for _ in (0, 1)]
    with b.emit("Sort"):
        body = region("Sort", comparator, b, shapes, role)
        results = stablehlo.sort(xs, dimension=dimension, is_stable=bool(is_stable),
                                 comparator=body)
        results = list(results) if isinstance(results, tuple) else [results]
        return as_result_op(b, results[:len(ops)])


def _iota_operand(xs, dimension: int):
    """The position of an operand that is an iota along `dimension` (argsort's indices), or
    None. (IREE rejects a sort of two iota operands, so an existing one is reused.)"""
    for k, v in enumerate(xs):
        owner = v.owner
        if isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == "stablehlo.iota" and \
                ir.IntegerAttr(owner.attributes["iota_dimension"]).value == dimension:
            return k
    return None


def _tie_broken(comparator, n: int, index: int, role: str):
    """comparator(l, r) or (not comparator(r, l) and position_l < position_r), positions from
    operand `index`: a strict order that keeps equal elements in their original order."""
    ew = elementwise.OPS

    def stable(*args):
        b = args[0].builder()
        pairs = list(args[:2 * n])
        swapped = [pairs[i + 1 - 2 * (i % 2)] for i in range(2 * n)]
        less = apply("Sort", comparator, pairs, b, role)
        greater = apply("Sort", comparator, swapped, b, role)
        tie = ew["And"](ew["Not"](greater), ew["Lt"](args[2 * index], args[2 * index + 1]))
        return ew["Or"](less, tie)
    return stable


def TopK(operand: XlaOp, k: int, largest: bool = True) -> XlaOp:
    """XLA TopK(operand, k, largest): (values, S32 indices) of the k largest (or smallest)
    entries along the last dimension, ties by lower index."""
    b = builder_of("TopK", operand)
    x = array("TopK", operand)
    if largest:
        with b.emit("TopK"):
            return b.tuple_of(list(chlo.top_k(x, k=k)))
    shape = T.shape(x.type)
    if not shape or not 0 <= k <= shape[-1]:
        fail("TopK", f"k={k} for an operand of shape {operand.shape()}",
             "0 <= k <= the last dimension")
    with b.emit("TopK"):
        idx = stablehlo.iota(iota_dimension=len(shape) - 1,
                             result_type=T.tensor_type(shape, np.int32))
        order = "TOTALORDER" if T.kind(T.elem(x.type)) == T.FLOAT else None

        def ascending(a, b_, i, j):     # a strict total order: ties by lower index
            lt = stablehlo.compare(a, b_, comparison_direction="LT", compare_type=order)
            eq = stablehlo.compare(a, b_, comparison_direction="EQ", compare_type=order)
            first = stablehlo.compare(i, j, comparison_direction="LT")
            return stablehlo.or_(lt, stablehlo.and_(eq, first))
        values, indices = stablehlo.sort([x, idx], dimension=len(shape) - 1, is_stable=True,
                                         comparator=ascending)
        limit = shape[:-1] + [k]
        cut = dict(start_indices=[0] * len(shape), limit_indices=limit, strides=[1] * len(shape))
        return b.tuple_of([stablehlo.slice(values, **cut), stablehlo.slice(indices, **cut)])


def Scan(inputs, inits, to_apply, scan_dimension: int, is_reverse: bool = False,
         is_associative=None) -> XlaOp:
    """XLA Scan(inputs..., inits..., to_apply, scan_dimension, is_reverse, is_associative):
    an (n + k)-tuple of the n stacked outputs and the k final carries. is_associative is a
    hint only (the scan runs sequentially)."""
    xs_ops = op_list("Scan", "inputs", inputs)
    init_ops = op_list("Scan", "inits", inits)
    b = builder_of("Scan", xs_ops, init_ops)
    xs = [array("Scan", o, f"inputs[{i}]") for i, o in enumerate(xs_ops)]
    cs = [array("Scan", o, f"inits[{i}]") for i, o in enumerate(init_ops)]
    if is_associative not in (None, True, False):
        fail("Scan", f"is_associative must be None, True or False, got {is_associative!r}")
    if xs:
        rank = T.rank(xs[0].type)
        if not -rank <= scan_dimension < rank:
            fail("Scan", f"scan_dimension {scan_dimension} is out of range for rank {rank}")
        scan_dimension %= rank
    shapes = [_drop(v.type, scan_dimension) for v in xs] + [Shape.from_ir(v.type) for v in cs]
    with b.emit("Scan"):
        if is_reverse:
            xs = [stablehlo.reverse(v, dimensions=[scan_dimension]) for v in xs]
        body = region("Scan", to_apply, b, shapes, f"{len(xs)} input elements then {len(cs)} "
                      "carries")
        results = list(chlo.scan(xs, cs, dimension=scan_dimension, body=body))
        n = len(results) - len(cs)
        if is_reverse:
            results[:n] = [stablehlo.reverse(v, dimensions=[scan_dimension])
                           for v in results[:n]]
        return b.tuple_of(results)


def _drop(t, d: int) -> Shape:
    s = Shape.from_ir(t)
    dims = list(s.dimensions())
    return Shape.array_shape(s.element_type(), dims[:d] + dims[d + 1:])


def SelectAndScatter(operand: XlaOp, select, window_dimensions, window_strides, padding,
                     source: XlaOp, init_value: XlaOp, scatter) -> XlaOp:
    """XLA SelectAndScatter: `select` (2 scalars -> PRED) picks one element per window of
    `operand`; `scatter` (2 scalars) combines `source` values into those positions."""
    return _select_and_scatter("SelectAndScatter", operand, select, window_dimensions,
                               window_strides, padding, source, init_value, scatter)


def SelectAndScatterWithGeneralPadding(operand, select, window_dimensions, window_strides,
                                       padding, source, init_value, scatter) -> XlaOp:
    return _select_and_scatter("SelectAndScatterWithGeneralPadding", operand, select,
                               window_dimensions, window_strides, padding, source, init_value,
                               scatter)


def _select_and_scatter(op, operand, select, window_dimensions, window_strides, padding, source,
                        init_value, scatter):
    b = builder_of(op, operand, source, init_value)
    x, src, init = array(op, operand), array(op, source, "source"), \
        array(op, init_value, "init_value")
    window = ints(op, "window_dimensions", window_dimensions)
    strides = ints(op, "window_strides", window_strides, optional=True) or [1] * len(window)
    pad = make_padding(op, padding, T.shape(x.type), window, strides)
    with b.emit(op):
        sel = region(op, select, b, scalar_shapes([x]) * 2, "2 operand scalars -> PRED")
        sc = region(op, scatter, b, scalar_shapes([src]) * 2, "2 source scalars")
        return b.wrap(stablehlo.select_and_scatter(x, src, init, window_dimensions=window,
                                                   window_strides=strides, padding=pad,
                                                   select=sel, scatter=sc))


OPS = dict(Reduce=Reduce, ReduceWindow=ReduceWindow,
           ReduceWindowWithGeneralPadding=ReduceWindowWithGeneralPadding, Map=Map, Sort=Sort,
           TopK=TopK, Scan=Scan, SelectAndScatter=SelectAndScatter,
           SelectAndScatterWithGeneralPadding=SelectAndScatterWithGeneralPadding)
