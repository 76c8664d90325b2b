"""Gather and Scatter with XLA's dimension numbers (xla.GatherDimensionNumbers,
xla.ScatterDimensionNumbers), built as stablehlo.gather / stablehlo.scatter."""
from __future__ import annotations

from shlo.dialect import stablehlo

from .builder import XlaOp
from .computations import region, scalar_shapes
from .numbers import GatherDimensionNumbers, ScatterDimensionNumbers, check_fields
from .operands import array, builder_of, ints, op_list
from .reductions import as_result_op


def Gather(operand: XlaOp, start_indices: XlaOp, dimension_numbers, slice_sizes,
           indices_are_sorted: bool = False) -> XlaOp:
    """XLA Gather(operand, start_indices, dimension_numbers, slice_sizes, indices_are_sorted)."""
    b = builder_of("Gather", operand, start_indices)
    dn = check_fields("Gather", "dimension_numbers", dimension_numbers, GatherDimensionNumbers)
    with b.emit("Gather"):
        return b.wrap(stablehlo.gather(
            array("Gather", operand), array("Gather", start_indices, "start_indices"),
            offset_dims=ints("Gather", "offset_dims", dn.offset_dims),
            collapsed_slice_dims=ints("Gather", "collapsed_slice_dims", dn.collapsed_slice_dims),
            operand_batching_dims=ints("Gather", "operand_batching_dims",
                                       dn.operand_batching_dims),
            start_indices_batching_dims=ints("Gather", "start_indices_batching_dims",
                                             dn.start_indices_batching_dims),
            start_index_map=ints("Gather", "start_index_map", dn.start_index_map),
            index_vector_dim=dn.index_vector_dim,
            slice_sizes=ints("Gather", "slice_sizes", slice_sizes),
            indices_are_sorted=bool(indices_are_sorted)))


def Scatter(operands, scatter_indices: XlaOp, updates, update_computation, dimension_numbers,
            indices_are_sorted: bool = False, unique_indices: bool = False) -> XlaOp:
    """XLA Scatter(operands..., scatter_indices, updates..., update_computation,
    dimension_numbers, indices_are_sorted, unique_indices): update_computation takes N
    current values then N updates (scalars); N > 1 operands give an N-tuple."""
    ops = op_list("Scatter", "operands", operands)
    ups = op_list("Scatter", "updates", updates)
    b = builder_of("Scatter", ops, scatter_indices, ups)
    dn = check_fields("Scatter", "dimension_numbers", dimension_numbers, ScatterDimensionNumbers)
    xs = [array("Scatter", o, f"operands[{i}]") for i, o in enumerate(ops)]
    us = [array("Scatter", u, f"updates[{i}]") for i, u in enumerate(ups)]
    with b.emit("Scatter"):
        body = region("Scatter", update_computation, b, scalar_shapes(xs) * 2,
                      f"{len(xs)} current values then {len(xs)} updates, scalars")
        return as_result_op(b, stablehlo.scatter(
            xs, array("Scatter", scatter_indices, "scatter_indices"), us,
            update_window_dims=ints("Scatter", "update_window_dims", dn.update_window_dims),
            inserted_window_dims=ints("Scatter", "inserted_window_dims",
                                      dn.inserted_window_dims),
            input_batching_dims=ints("Scatter", "input_batching_dims", dn.input_batching_dims),
            scatter_indices_batching_dims=ints("Scatter", "scatter_indices_batching_dims",
                                               dn.scatter_indices_batching_dims),
            scatter_dims_to_operand_dims=ints("Scatter", "scatter_dims_to_operand_dims",
                                              dn.scatter_dims_to_operand_dims),
            index_vector_dim=dn.index_vector_dim, indices_are_sorted=bool(indices_are_sorted),
            unique_indices=bool(unique_indices), update_computation=body))


OPS = dict(Gather=Gather, Scatter=Scatter)
