"""Vulkan quirk rewrites that change what a dispatch computes itself: values behind fusion
barriers (read from memory), iotas as broadcasts and constants (docs/iree_gaps.md)."""
from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import element_dtype
from ...custom_calls.cumulative_window import is_identity
from ...base import from_constants, reads_narrow_values
from ...lib.builders import (FUSION_BARRIER, fence, fence_readers, fence_uses, fusion_barrier,
                             fusion_barriers, in_control_flow, optimization_barrier)
from ...lib.elementwise import ELEMENTWISE_OPS
from ...lib.expr import bit_width, element_of, is_complex, is_float, real_element


def nd_iota_as_broadcast(op: ir.Operation):
    """An iota of rank 2 or more (static shape) as a broadcast of a 1-D iota."""
    t = ir.RankedTensorType(op.results[0].type)
    if t.rank < 2 or not t.has_static_shape:
        return None
    dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    line = stablehlo.iota(iota_dimension=0, result_type=ir.RankedTensorType.get(
        [t.shape[dimension]], t.element_type))
    return [stablehlo.broadcast_in_dim(line, broadcast_dimensions=[dimension], result_type=t)]


def fence_narrow_window_inputs(window: ir.Operation) -> None:
    """A reduce_window's inputs computed from 8- or 16-bit numbers (the f32 converts of
    shlo-accumulate-in-f32, x.astype(f32) before a pooling) behind fusion barriers."""
    window = window.operation
    half = len(window.operands) // 2
    inputs = [v for v in list(window.operands)[:half]
              if ir.RankedTensorType(v.type).has_static_shape and reads_narrow_values(v)]
    if not inputs:
        return
    with ir.InsertionPoint(window), window.location:
        fenced = fusion_barriers(inputs)
    for old, new in zip(inputs, fenced):
        for i in range(half):
            if window.operands[i] == old:
                window.operands[i] = new


def fence_narrow_scatter_inputs(scatter: ir.Operation) -> None:
    """A scatter's 32- or 64-bit indices and updates computed from 8- or 16-bit numbers (a
    bf16 -> f32 convert of a select_and_scatter's source) behind fusion barriers: IREE fused
    the whole convert into the dispatch of one slice of the updates and kept it in shared
    memory. (Narrow updates stay: a view of the scatter's own operand needs
    shlo-copy-overlapping-updates' optimization_barrier alone.)"""
    scatter = scatter.operation
    n = (len(scatter.operands) - 1) // 2
    for k in range(n, 2 * n + 1):
        value = scatter.operands[k]
        if (isinstance(value.owner, ir.Block) or value.owner.name == FUSION_BARRIER
                or getattr(element_of(value), "width", 32) < 32
                or not reads_narrow_values(value)):
            continue
        with ir.InsertionPoint(scatter), scatter.location:
            scatter.operands[k] = fence([value])[0]


def _fence_computed_f64_operand(op: ir.Operation) -> None:
    """`op` reads its first operand, a static f64 value an op computes (not a constant nor a
    barrier's result), behind a fusion barrier."""
    source = op.operands[0]
    if (isinstance(source.owner, ir.Block) or source.owner.name in (FUSION_BARRIER,
                                                                    "stablehlo.constant")
            or not isinstance(element_of(source), ir.F64Type)
            or not ir.RankedTensorType(source.type).has_static_shape):
        return
    with ir.InsertionPoint(op), op.location:
        op.operands[0] = fence([source])[0]


def fence_f64_strided_slice(op: ir.Operation) -> None:
    """A slice with a stride over 1 of a computed f64 value reads it behind a fusion barrier:
    IREE fused the whole value into the slice's dispatch, where its threads raced on it (a
    select_and_scatter's window picks came out wrong in 2 of 60 runs)."""
    op = op.operation
    if any(int(s) > 1 for s in ir.DenseI64ArrayAttr(op.attributes["strides"])):
        _fence_computed_f64_operand(op)


def fence_f64_negative_pad(op: ir.Operation) -> None:
    """A pad with negative edge padding (a slice) of a computed f64 value of 2+ dimensions
    reads it behind a fusion barrier: fused with its producer, IREE's dispatch wrote most
    elements wrong (260096 of 263168 of a [256, 1024] negate padded by [-2, -1])."""
    op = op.operation
    edges = [int(p) for name in ("edge_padding_low", "edge_padding_high")
             for p in ir.DenseI64ArrayAttr(op.attributes[name])]
    if any(p < 0 for p in edges) and ir.RankedTensorType(op.operands[0].type).rank >= 2:
        _fence_computed_f64_operand(op)


# ops that move elements without computing, seen through to a convert from integers
_MOVES = ("stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.transpose",
          "stablehlo.slice", "stablehlo.reverse")


def _from_integers(value: ir.Value) -> bool:
    """Whether `value` is a convert of integers, or moves one's elements (`_MOVES`)."""
    while isinstance(value, ir.OpResult) and value.owner.name in _MOVES:
        value = value.owner.operands[0]
    return isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.convert" and \
        isinstance(ir.RankedTensorType(value.owner.operands[0].type).element_type,
                   ir.IntegerType)


def fence_integer_to_bf16(convert: ir.Operation) -> None:
    """A convert to bf16 of a float converted from integers (maybe broadcast, reshaped,
    transposed, sliced or reversed) reads that float behind a fusion barrier (the two converts
    round twice; one fused dispatch fails to compile: 'spirv.Bitcast' op mismatch in result
    type bitwidth)."""
    convert = convert.operation
    source = convert.operands[0]
    if not isinstance(ir.RankedTensorType(convert.results[0].type).element_type.maybe_downcast(),
                      ir.BF16Type) or not _from_integers(source):
        return
    with ir.InsertionPoint(convert), convert.location:
        convert.operands[0] = fence([source])[0]


def _moves_dimensions(result: ir.Value, kept: list[int]) -> bool:
    """Whether a broadcast_in_dim reached from a reduce's `result` (through elementwise ops and
    broadcasts) puts one of its dimensions at another position than the reduce's operand has
    it (`kept`: the operand dimension of each of the result's): the diagonal of a matrix
    scaling its columns, where the reduction ran over rows."""
    pending: list[tuple[ir.Value, list[int | None]]] = [(result, list(kept))]
    seen: set = set()           # (value, placement): each once, not once per path to it
    while pending:
        value, where = pending.pop()
        if (value, tuple(where)) in seen:
            continue
        seen.add((value, tuple(where)))
        for use in value.uses:
            user = use.owner.operation
            if user.name == "stablehlo.broadcast_in_dim":
                dims = list(ir.DenseI64ArrayAttr(user.attributes["broadcast_dimensions"]))
                placed: list[int | None] = [None] * ir.RankedTensorType(
                    user.results[0].type).rank
                for source, target in zip(where, dims):
                    placed[target] = source
                if any(d is not None and d != position for position, d in enumerate(placed)):
                    return True
                pending.append((user.results[0], placed))
            elif user.name in ELEMENTWISE_OPS and len(user.results) == 1 and (
                    user.results[0].type.shape == value.type.shape):
                pending.append((user.results[0], where))
    return False


# elements of a fused user per reduce result that one shader may loop over: llvmpipe ends a
# shader's loops after 65535 back-edges in all (docs/iree_gaps.md, long reductions), and the
# split reductions loop over up to 4096 elements themselves
FUSED_USER_ELEMENTS = 1 << 14


def _fans_out(result: ir.Value) -> bool:
    """Whether elementwise ops and broadcasts reached from a reduce's `result` make more than
    FUSED_USER_ELEMENTS elements per element of it (a full sum scaling a 65537-element
    vector: IREE fused the vector's ops into the reduction's one invocation, whose loop lost
    the last elements)."""
    size = max(1, math.prod(ir.RankedTensorType(result.type).shape))
    pending, seen = [result], {result}
    while pending:
        for use in pending.pop().uses:
            user = use.owner.operation
            if (user.name == "stablehlo.broadcast_in_dim" or user.name in ELEMENTWISE_OPS) \
                    and len(user.results) == 1 and user.results[0] not in seen:
                t = user.results[0].type.maybe_downcast()
                if not (isinstance(t, ir.RankedTensorType) and t.has_static_shape):
                    continue
                if math.prod(t.shape) > FUSED_USER_ELEMENTS * size:
                    return True
                seen.add(user.results[0])
                pending.append(user.results[0])
    return False


def fence_reduce_results(reduce: ir.Operation) -> None:
    """A reduce's results behind fusion barriers when it keeps its operand's innermost
    dimension (a sum over axis 0 of a matrix), when its users broadcast them along other
    dimensions than they came from (a row reduction scaling columns), or when its users make
    more than FUSED_USER_ELEMENTS elements of each result. A row reduction broadcast back
    along its rows (softmax, layernorm) stays fused."""
    reduce = reduce.operation
    operand = ir.RankedTensorType(reduce.operands[0].type)
    dimensions = list(ir.DenseI64ArrayAttr(reduce.attributes["dimensions"]))
    results = [r for r in reduce.results if ir.RankedTensorType(r.type).has_static_shape]
    if len(results) < len(reduce.results):
        return
    fans_out = any(_fans_out(r) for r in results)
    if operand.rank < 2 and not fans_out:
        return
    kept = [d for d in range(operand.rank) if d not in dimensions]
    if not fans_out and operand.rank - 1 in dimensions and \
            not any(_moves_dimensions(r, kept) for r in results):
        return
    if not any(use.owner.name != FUSION_BARRIER for r in results for use in r.uses):
        return          # unread, or already behind barriers
    fence_readers(results, reduce, fusion_barriers)


def reduce_sources(reduce: ir.Operation, wanted, depth: int = 8) -> list[ir.Value]:
    """The values for which `wanted(value)` holds that a reduce computes its operands from,
    followed back `depth` elementwise ops (not past a wanted value)."""
    reduce = reduce.operation
    seen, frontier, found = set(), list(reduce.operands)[:len(reduce.operands) // 2], []
    for _ in range(depth):
        operands = []
        for value in frontier:
            if wanted(value):
                found.append(value)
                continue
            producer = value.owner
            if isinstance(producer, ir.Block) or producer.name not in ELEMENTWISE_OPS:
                continue
            operands += [v for v in producer.operands if v not in seen]
            seen.update(producer.operands)
        frontier = operands
    return list(dict.fromkeys(found))


def _is_widened_narrow_float(value: ir.Value) -> bool:
    owner = value.owner
    return (not isinstance(owner, ir.Block) and owner.name == "stablehlo.convert"
            and is_float(element_of(owner.operands[0]))
            and bit_width(element_of(owner.operands[0])) < 32
            and ir.RankedTensorType(value.type).has_static_shape)


def fence_widened_column_reduce_inputs(reduce: ir.Operation) -> None:
    """The bf16/f16 -> f32 converts that a reduce keeping its operand's innermost dimension
    (a column sum, IREE's "matvec_like" dispatch) computes its operand from (followed back
    8 elementwise ops) behind fusion barriers: the convert fused into that dispatch made
    IREE's SPIR-V compile run without end."""
    operand = ir.RankedTensorType(reduce.operation.operands[0].type)
    if operand.rank < 2 or operand.rank - 1 in list(
            ir.DenseI64ArrayAttr(reduce.operation.attributes["dimensions"])):
        return
    for value in reduce_sources(reduce, _is_widened_narrow_float):
        fence_uses(value)


def _is_strided_slice(value: ir.Value) -> bool:
    owner = value.owner
    return (not isinstance(owner, ir.Block) and owner.name == "stablehlo.slice"
            and any(int(s) > 1 for s in ir.DenseI64ArrayAttr(owner.attributes["strides"]))
            and ir.RankedTensorType(value.type).has_static_shape)


def fence_strided_reduce_inputs(reduce: ir.Operation) -> None:
    """The strided slices (a stride over 1) that a reduce computes its operand from (followed
    back 8 elementwise ops) behind fusion barriers: fused into the reduction's dispatch,
    IREE's SPIR-V reduction read the slice's rows as if unstrided (`x[::2].sum(0)` of 64x32
    summed other rows, silently)."""
    fence_reduce_sources(reduce, _is_strided_slice)


def fence_reduce_sources(reduce: ir.Operation, wanted) -> None:
    """Each of `reduce_sources(reduce, wanted)` that something reads past a fusion barrier,
    behind one."""
    for value in reduce_sources(reduce, wanted):
        if not all(use.owner.name == FUSION_BARRIER for use in value.uses):
            fence_uses(value)


def fence_broadcast_window_results(window: ir.Operation) -> None:
    """A reduce_window's results that a broadcast_in_dim or a dot_general (which IREE may
    compute as a broadcast product) reads behind fusion barriers."""
    for result in window.operation.results:
        if ir.RankedTensorType(result.type).has_static_shape and any(
                use.owner.name in ("stablehlo.broadcast_in_dim", "stablehlo.dot_general")
                for use in result.uses):
            fence_uses(result)


def fence_f64_operands(op: ir.Operation) -> None:
    """The computed operands of an f64 (or complex<f64>) convolution or dot_general behind
    fusion barriers."""
    if str(real_element(element_of(op.results[0]))) != "f64":
        return
    for i, operand in enumerate(op.operands):
        producer = operand.owner
        if (isinstance(producer, ir.Block) or producer.name in (FUSION_BARRIER,
                                                                 "stablehlo.constant")
                or not ir.RankedTensorType(operand.type).has_static_shape):
            continue
        with ir.InsertionPoint(op), op.location:
            op.operands[i] = fusion_barrier(operand)


def fence_f64_results(op: ir.Operation) -> None:
    """The result of an f64 (or complex<f64>) convolution or dot_general read by the ops
    using it from behind a fusion barrier (an optimization_barrier in loops): not fused into
    them (a result only returned is left alone)."""
    result = op.results[0]
    if str(real_element(element_of(result))) != "f64" or \
            not ir.RankedTensorType(result.type).has_static_shape or \
            all(use.owner.name in (FUSION_BARRIER, "func.return") for use in result.uses):
        return
    fence_uses(result, lambda v: fence([v])[0])


def fence_constant_sort_operands(sort: ir.Operation) -> None:
    """A sort's operands that are computed from constants alone read through an
    optimization barrier (one that canonicalize does not fold away)."""
    values = [v for v in sort.operands if from_constants([v], regions=True)]
    if values:
        fence_readers(values, sort, optimization_barrier, before=True,
                      reads=lambda user: user == sort)


def fence_dynamic_slice(op: ir.Operation) -> None:
    """A slice with run-time sizes behind a fusion barrier for the ops that read it (not
    inside a while, if or case, where fusion barriers fail IREE's stream scheduling)."""
    result = op.results[0]
    if (ir.RankedTensorType(result.type).has_static_shape or in_control_flow(op)
            or all(use.owner.name == FUSION_BARRIER for use in result.uses)):
        return
    fence_uses(result)


# what a float zero constant is seen through
_ZERO_PRESERVING = ("stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert",
                    "stablehlo.transpose")


def _is_float_zero(value: ir.Value) -> bool:
    """Whether `value` is a float zero splat constant, maybe broadcast, reshaped or converted."""
    while not isinstance(value.owner, ir.Block) and value.owner.name in _ZERO_PRESERVING:
        value = value.owner.operands[0]
    return is_float(element_of(value)) and is_identity(value, "stablehlo.add")


def fence_zero_operands(op: ir.Operation) -> None:
    """A float zero constant that float arithmetic reads behind a fusion barrier: the shader
    reads it from memory instead of folding x * 0, x / 0, 0 / x, x + 0 and 0 - x."""
    if not is_float(element_of(op.results[0])):
        return
    for i, operand in enumerate(op.operands):
        if ir.RankedTensorType(operand.type).has_static_shape and _is_float_zero(operand):
            with ir.InsertionPoint(op), op.location:
                op.operands[i] = fusion_barrier(operand)


# A 1-D iota up to this length becomes a constant (a longer one stays an iota).
IOTA_CONSTANT_LIMIT = 4096


def iota_as_constant(iota: ir.Operation) -> None:
    """A 1-D iota of up to IOTA_CONSTANT_LIMIT elements as a constant, which a reduce's
    dispatch reads from memory."""
    iota = iota.operation
    t = ir.RankedTensorType(iota.results[0].type)
    if t.rank != 1 or not t.has_static_shape or t.shape[0] > IOTA_CONSTANT_LIMIT:
        return
    dtype = element_dtype(t.element_type)
    if dtype is None or is_complex(t.element_type):     # (complex constants do not compile)
        return
    with ir.InsertionPoint(iota), iota.location:
        counted = stablehlo.constant(np.arange(t.shape[0]).astype(dtype), result_type=t)
    iota.results[0].replace_all_uses_with(counted)
    iota.erase()



def _widened_by_several(user: ir.Operation) -> bool:
    """Whether `user` is a convert of a 16-bit float to a wider float that several ops read."""
    if user.name != "stablehlo.convert":
        return False
    source, result = element_of(user.operands[0]), element_of(user.results[0])
    return (is_float(source) and is_float(result) and bit_width(source) == 16
            and bit_width(result) > 16 and len(list(user.results[0].uses)) > 1)


def fence_widened_transpose_results(op: ir.Operation) -> None:
    """A static transpose of 16-bit floats that a convert to a wider float reads, that convert
    read by several ops (two dispatches), read by its readers behind a fusion barrier: fused,
    IREE staged the widened values in workgroup memory and read other invocations' elements
    of it with no barrier between (an f16 3x6 transpose widened to f32, then narrowed back and
    sliced: 3 of 18 wrong in 16 of 20 runs; vk-widened-transpose)."""
    op = op.operation
    result = op.results[0]
    if (not ir.RankedTensorType(result.type).has_static_shape
            or in_control_flow(op.parent)
            or not any(_widened_by_several(use.owner.operation) for use in result.uses)):
        return
    fence_uses(result)
