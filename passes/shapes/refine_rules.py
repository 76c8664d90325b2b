"""Shape refinement's rewrite rules: dynamic ops whose shape operands are known at compile time
become their static forms, and shape bookkeeping that is decided at compile time goes away.

A rule takes the op and returns the values replacing its results (built before it, at its
location), or None to leave it. Shape operands are read with `refine_fold.evaluate`.

    dynamic_broadcast_in_dim -> broadcast_in_dim     dynamic_reshape -> reshape
    dynamic_iota -> iota          dynamic_pad -> pad       real_dynamic_slice -> slice
    dynamic_slice (constant starts, clamped as the spec says) -> slice
    dynamic_gather -> gather      dynamic_conv -> convolution
    get_dimension_size of a static dimension -> constant
    custom_call @stablehlo.shape_refinement_operand_wrapper -> its operand (refine-arguments)
    custom_call @shape_assertion with a known predicate -> removed (true) or an error (false)
    custom_call @stablehlo.dynamic_reduce_window (jax's cumsum, cummax, reduce_window with
        symbolic shapes) with known window operands -> reduce_window, its body the called
        function's
"""
from __future__ import annotations

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import DYN
from shlo.errors import PassError
from ..lib.expr import attributes
from ..chlo.structure import inline_block
from .refine_fold import evaluate

WRAPPER = "stablehlo.shape_refinement_operand_wrapper"


def _shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def _static(*values: ir.Value) -> bool:
    return all(ir.RankedTensorType(v.type).has_static_shape for v in values)


def _known(values) -> list | None:
    arrays = [evaluate(v) for v in values]
    known = [a.reshape(-1).tolist() for a in arrays if a is not None]
    return known if len(known) == len(arrays) else None


def _result_type(op: ir.Operation, dims, result: int = 0) -> ir.RankedTensorType:
    """Result `result`'s type with the known `dims`, checked against the declared one."""
    t = ir.RankedTensorType(op.results[result].type)
    if any(d < 0 for d in dims):
        raise PassError(f"{op.name}: shape operand gives a negative dimension size: "
                        f"{list(dims)}", at=op)
    if len(dims) != t.rank:
        raise PassError(f"{op.name}: shape operand has {len(dims)} entries but the result "
                        f"{t} has rank {t.rank}", at=op)
    for d, (a, b) in enumerate(zip(t.shape, dims)):
        if a != DYN and a != b:
            raise PassError(f"{op.name}: shape operand gives {list(dims)} but the result type "
                            f"is {t} (dimension {d})", at=op)
    return ir.RankedTensorType.get(list(dims), t.element_type)


def _dynamic_broadcast_in_dim(op):
    known = _known([op.operands[1]])
    if known is None or not _static(op.operands[0]):
        return None
    result = _result_type(op, known[0])
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"])]
    for k, d in enumerate(dims):
        size = _shape(op.operands[0])[k]
        if size not in (1, result.shape[d]):
            raise PassError(f"{op.name}: operand {op.operands[0].type} does not broadcast to "
                            f"{list(result.shape)}: operand dimension {k} has size {size} but "
                            f"result dimension {d} has size {result.shape[d]}", at=op)
    return [stablehlo.broadcast_in_dim(op.operands[0], broadcast_dimensions=dims,
                                       result_type=result)]


def _dynamic_reshape(op):
    known = _known([op.operands[1]])
    if known is None or not _static(op.operands[0]):
        return None
    result = _result_type(op, known[0])
    have, want = int(np.prod(_shape(op.operands[0]))), int(np.prod(result.shape))
    if have != want:
        raise PassError(f"{op.name}: cannot reshape {op.operands[0].type} ({have} elements) to "
                        f"{list(result.shape)} ({want} elements)", at=op)
    return [stablehlo.reshape(op.operands[0], result_type=result)]


def _dynamic_iota(op):
    known = _known([op.operands[0]])
    if known is None:
        return None
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    return [stablehlo.iota(iota_dimension=dimension, result_type=_result_type(op, known[0]))]


def _dynamic_pad(op):
    known = _known(op.operands[2:])
    if known is None or not _static(op.operands[0]):
        return None
    low, high, interior = known
    if any(i < 0 for i in interior):
        raise PassError(f"{op.name}: interior_padding must be >= 0, got {interior}", at=op)
    return [stablehlo.pad(op.operands[0], op.operands[1], edge_padding_low=low,
                          edge_padding_high=high, interior_padding=interior)]


def _real_dynamic_slice(op):
    known = _known(op.operands[1:])
    if known is None or not _static(op.operands[0]):
        return None
    start, limit, strides = known
    for d, (lo, hi, step, n) in enumerate(zip(start, limit, strides, _shape(op.operands[0]))):
        if not (0 <= lo <= hi <= n) or step <= 0:
            raise PassError(f"{op.name}: dimension {d}: slice [{lo}:{hi}:{step}] does not fit "
                            f"operand {op.operands[0].type} (need 0 <= start <= limit <= size, "
                            f"stride > 0)", at=op)
    return [stablehlo.slice(op.operands[0], start_indices=start, limit_indices=limit,
                            strides=strides)]


def _dynamic_slice(op):
    known = _known(op.operands[1:])
    if known is None or not _static(op.operands[0]):
        return None
    sizes = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["slice_sizes"])]
    starts = [min(max(s[0], 0), n - size) for s, n, size in
              zip(known, _shape(op.operands[0]), sizes)]
    return [stablehlo.slice(op.operands[0], start_indices=starts,
                            limit_indices=[s + n for s, n in zip(starts, sizes)])]


def _dynamic_gather(op):
    known = _known([op.operands[2]])
    if known is None:
        return None
    _, kwargs = arguments(op)
    if kwargs.get("index_vector_dim") is None:      # the attribute's default, left unprinted
        kwargs["index_vector_dim"] = 0
    return [stablehlo.gather(op.operands[0], op.operands[1], slice_sizes=known[0], **kwargs)]


def _dynamic_conv(op):
    known = _known([op.operands[2]])
    if known is None:
        return None
    _, kwargs = arguments(op)
    padding = np.array(known[0], dtype=np.int64).reshape(-1, 2)
    return [stablehlo.convolution(op.operands[0], op.operands[1], padding=padding, **kwargs)]


def _get_dimension_size(op):
    size = _shape(op.operands[0])[ir.IntegerAttr(op.attributes["dimension"]).value]
    if size == DYN:
        return None
    return [stablehlo.constant(np.array(size, np.int32))]


def _custom_call(op):
    target = ir.StringAttr(op.attributes["call_target_name"]).value
    if target == WRAPPER:
        return _unwrap(op)
    if target == "shape_assertion":
        return _shape_assertion(op)
    if target == "stablehlo.dynamic_reduce_window":
        return _dynamic_reduce_window(op)
    if target == "stablehlo.dynamic_rng_bit_generator":
        return _dynamic_rng_bit_generator(op)
    if "indices_of_shape_operands" in op.attributes:
        return _shaped_results(op)
    return None


def _shaped_results(op):
    """A custom call whose results' shapes are operands (`indices_of_shape_operands`: jax's
    LAPACK calls under shape polymorphism): the same call with those shapes as result types,
    once they are known."""
    indices = [int(i) for i in ir.DenseIntElementsAttr(op.attributes["indices_of_shape_operands"])]
    results = [ir.RankedTensorType(r.type) for r in op.results]
    if len(indices) != len(results) or all(t.has_static_shape for t in results):
        return None
    known = _known([op.operands[i] for i in indices])
    if known is None:
        return None
    types = [ir.RankedTensorType.get([int(d) for d in shape], t.element_type)
             for shape, t in zip(known, results)]
    new = ir.Operation.create("stablehlo.custom_call", results=types, operands=list(op.operands),
                              attributes=attributes(op))
    return list(new.results)


def _dynamic_reduce_window(op):
    """custom_call @stablehlo.dynamic_reduce_window(inputs..., inits..., window_dimensions,
    window_strides, base_dilations, window_dilations, padding) {called_computations = [@body]}."""
    n = (len(op.operands) - 5) // 2
    known = _known(op.operands[2 * n:])
    if known is None or not _static(*op.operands[:n]):
        return None
    dimensions, strides, base, window, padding = known
    body = called_function(op).regions[0].blocks[0]
    out = stablehlo.reduce_window(
        list(op.operands[:n]), list(op.operands[n:2 * n]), window_dimensions=dimensions,
        window_strides=strides, base_dilations=base, window_dilations=window,
        padding=np.array(padding, np.int64).reshape(-1, 2),
        body=lambda *args: inline_block(body, list(args)))
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _dynamic_rng_bit_generator(op):
    """custom_call @stablehlo.dynamic_rng_bit_generator(state, shape) {rng_algorithm}: the
    static rng_bit_generator once the shape is known."""
    known = _known([op.operands[1]])
    if known is None:
        return None
    algorithm = (enum_name(op.attributes["rng_algorithm"]) if "rng_algorithm" in op.attributes
                 else "DEFAULT")
    state, bits = stablehlo.rng_bit_generator(
        op.operands[0], rng_algorithm=algorithm,
        result_type=_result_type(op, [int(d) for d in known[0]], result=1))
    return [state, bits]


def called_function(op: ir.Operation) -> ir.Operation:
    """The function a custom_call names first in `called_computations`."""
    module = op
    while module.name != "builtin.module":
        module = module.parent
    callee = ir.FlatSymbolRefAttr(ir.ArrayAttr(op.attributes["called_computations"])[0]).value
    return ir.SymbolTable(module.operation)[callee].operation


def _unwrap(op):
    operand = op.operands[0]
    known = _known([op.operands[1]])
    if known is None:
        return None
    if _shape(operand) != known[0]:
        raise PassError(f"{op.name} @{WRAPPER}: operand {operand.type} does not have the shape "
                        f"{known[0]} it is refined to", at=op)
    return [operand]


def _shape_assertion(op):
    known = _known([op.operands[0]])
    if known is None:
        return None
    if all(known[0]):
        return []
    message = ir.StringAttr(op.attributes["error_message"]).value \
        if "error_message" in op.attributes else "shape assertion failed"
    details = [_known([v]) for v in op.operands[1:]]
    values = [d[0][0] if d and len(d[0]) == 1 else "?" for d in details]
    try:
        message = message.format(*values)
    except (IndexError, KeyError, ValueError):
        pass
    raise PassError(f"shape assertion fails for the refined shapes: {message}", at=op)


RULES = {
    "stablehlo.dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim,
    "stablehlo.dynamic_reshape": _dynamic_reshape,
    "stablehlo.dynamic_iota": _dynamic_iota,
    "stablehlo.dynamic_pad": _dynamic_pad,
    "stablehlo.real_dynamic_slice": _real_dynamic_slice,
    "stablehlo.dynamic_slice": _dynamic_slice,
    "stablehlo.dynamic_gather": _dynamic_gather,
    "stablehlo.dynamic_conv": _dynamic_conv,
    "stablehlo.get_dimension_size": _get_dimension_size,
    "stablehlo.custom_call": _custom_call,
}

# Ops whose result shape is one operand's value: op name -> that operand's index.
SHAPE_OPERANDS = {"stablehlo.dynamic_broadcast_in_dim": 1, "stablehlo.dynamic_reshape": 1,
                  "stablehlo.dynamic_iota": 0}


def known_result_type(op: ir.Operation) -> ir.RankedTensorType | None:
    """The static result type of an op whose shape operand is known at compile time."""
    index = SHAPE_OPERANDS.get(op.name)
    known = None if index is None else _known([op.operands[index]])
    return None if known is None else _result_type(op, known[0])
