"""shlo-expand-dynamic-ops: rewrite the dynamic ops IREE cannot compile into forms it can
(docs/iree_gaps.md#shlo-expand-dynamic-ops).

- `dynamic_reshape` to a result with dynamic dimensions (IREE: "failed to legalize"):
  `tensor.collapse_shape` to 1-D, then `tensor.expand_shape` to the sizes read from the
  shape operand.
- `dynamic_broadcast_in_dim` whose operand dimension has the very size the output is given
  for it (both read from one dimension of one value, through elementwise ops, reductions'
  kept dimensions and earlier broadcasts: jax's softmax and layernorm with a symbolic batch)
  is marked non-expanding there; a broadcast of a broadcast keeps that when merged (IREE
  merges the pair itself and drops it). IREE fails at run time on the `stablehlo.if`
  branches below for these.
- `dynamic_broadcast_in_dim` with an operand dimension that is dynamic and not known to
  expand or not (IREE rejects it): a `stablehlo.if` on whether that size is 1, each branch a
  dynamic_broadcast_in_dim that says which (nested for several such dimensions, at most
  `MAX_AMBIGUOUS`).
- `dot_general` on dynamic shapes where an operand has no free dimension (a matrix-vector or
  vector-vector product) or nothing is contracted (an outer product): IREE makes a
  `stablehlo.reshape` with a dynamic result of it and rejects that (also when the missing
  dimensions are added as size-1 dimensions: it removes them again). It becomes a broadcast
  multiply and a sum (f16/bf16 summed in f32).
- `dynamic_gather` of one slice with run-time slice sizes (jax's `x[1:]` with a symbolic
  length, `y[0]` of a [1, b, c] convolution; IREE: "failed to legalize operation
  'stablehlo.dynamic_gather'"): a `real_dynamic_slice` from the clamped start, as gather
  clamps it, its collapsed dimensions (of size 1) then collapsed (`tensor.collapse_shape`).
  A `dynamic_gather` whose run-time slice sizes are whole dimensions, never indexed (jax's
  `x[:, [3, 1]]` with a symbolic batch): a `gather` with static slice sizes, those dimensions
  batching dimensions and the indices broadcast along them.
- `get_dimension_size` and `dynamic_broadcast_in_dim` of an unsigned tensor with a dynamic
  shape (IREE: "failed to legalize operation 'tensor.dim'"): on a signless convert of it
  (`chlo_stablehlo_extras.signless`), the broadcast converted back.
- `convolution` over run-time sized spatial dimensions (IREE: "failed to legalize"): a sum of
  matmuls over shifted slices (`convolution_to_dots.sum_of_dots`).
- `dynamic_update_slice` into a run-time sized operand (lax.scan's stacked outputs; IREE:
  "failed to legalize"): a `tensor.insert_slice` at the clamped start indices.
- a run-time size converted to f64 (IREE's host VM has no i32 -> f64 cast): through the bits
  of 2^52 + n.
- a `dynamic_conv` whose padding is known only at run time (jax's strided SAME over a
  symbolic length): a one-line error that says to specialize (IREE: "failed to legalize").
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import CONV_DIMS
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import DYN, constant_values
from shlo.errors import PassError
from ..lib import builders as extras
from ..lib.expr import Num, attributes, element_of, sum_over
from ..dispatch.convolution_to_dots import group_counts, sum_of_dots
from ..base import Pass, nested_ops
from ..op_rules import apply_rules

MAX_AMBIGUOUS = 4
# a convolution over run-time spatial sizes becomes one matmul per window position: up to
MAX_WINDOW_POSITIONS = 64


def _index_of(shape: ir.Value, d: int) -> ir.Value:
    """Entry d of a 1-D integer shape tensor as an `index`."""
    index = ir.IndexType.get()
    position = ir.Operation.create("arith.constant", results=[index],
                                   attributes={"value": ir.IntegerAttr.get(index, d)}).result
    element = ir.RankedTensorType(shape.type).element_type
    entry = ir.Operation.create("tensor.extract", results=[element],
                                operands=[shape, position]).result
    return ir.Operation.create("arith.index_cast", results=[index], operands=[entry]).result


def _cast(value: ir.Value, t: ir.Type) -> ir.Value:
    if value.type == t:
        return value
    return ir.Operation.create("tensor.cast", results=[t], operands=[value]).result


def _dynamic_reshape(op):
    operand, shape = op.operands[0], op.operands[1]
    result = ir.RankedTensorType(op.results[0].type)
    if result.has_static_shape:
        return None
    source = ir.RankedTensorType(operand.type)
    element = source.element_type
    if source.rank == 0:
        operand = stablehlo.reshape(operand, result_type=ir.RankedTensorType.get([1], element))
        source = ir.RankedTensorType(operand.type)
    flat = operand
    if source.rank > 1:
        size = DYN if not source.has_static_shape else int(np.prod(source.shape))
        flat = extras.collapse_shape(operand, [list(range(source.rank))],
                                     ir.RankedTensorType.get([size], element))
    flat = _cast(flat, ir.RankedTensorType.get([DYN], element))
    if result.rank == 0:
        return [stablehlo.reshape(flat, result_type=result)]
    sizes = [_index_of(shape, d) for d in range(result.rank) if result.shape[d] == DYN]
    return [ir.Operation.create(
        "tensor.expand_shape", results=[result], operands=[flat, *sizes],
        attributes={"reassociation": extras.reassociation([list(range(result.rank))]),
                    "static_output_shape": ir.DenseI64ArrayAttr.get(list(result.shape))}).result]


def _dims(op: ir.Operation, name: str) -> list[int]:
    return [int(d) for d in ir.DenseI64ArrayAttr(op.attributes[name])] \
        if name in op.attributes else []


def _ambiguous(op: ir.Operation, same: list[int]) -> list[int]:
    """Dynamic operand dimensions not known to expand or not (`same`: those `_same_size`
    proves non-expanding)."""
    known = set(_dims(op, "known_expanding_dimensions")) | \
        set(_dims(op, "known_nonexpanding_dimensions")) | set(same)
    shape = ir.RankedTensorType(op.operands[0].type).shape
    return [k for k, size in enumerate(shape) if size == DYN and k not in known]


def _same_size(op: ir.Operation) -> list[int]:
    """Operand dimensions whose run-time size is the very size the output is given for them
    (both read from one dimension of one value): they cannot expand. jax's softmax and
    layernorm broadcast a row reduction back to the rows' shape this way."""
    same = []
    for k, d in enumerate(_dims(op, "broadcast_dimensions")):
        given = _given_size(op.operands[1], d)
        if given is not None and size_origins(*given) & size_origins(op.operands[0], k):
            same.append(k)
    return same


def size_origins(value: ir.Value, d: int, limit: int = 64) -> set:
    """Every (value, dimension) known to have the size of dimension d of `value`: through
    elementwise ops (their operands' sizes agree, which shlo-insert-shape-checks checks), the
    kept dimensions of reductions and the sizes dynamic broadcasts were given."""
    from ..lib.elementwise import ELEMENTWISE_OPS
    found: set[tuple[ir.Value, int]] = set()
    todo = [(value, d)]
    while todo and len(found) < limit:
        v, k = todo.pop()
        if (v, k) in found:
            continue
        found.add((v, k))
        if not isinstance(v, ir.OpResult):
            continue
        owner, shape = v.owner, ir.RankedTensorType(v.type).shape
        if owner.name in ELEMENTWISE_OPS:
            todo += [(o, k) for o in extras.same_shape_operands(owner, shape)]
        elif owner.name == "stablehlo.reduce":
            reduced = set(_dims(owner, "dimensions"))
            kept = [j for j in range(ir.RankedTensorType(owner.operands[0].type).rank)
                    if j not in reduced]
            todo.append((owner.operands[0], kept[k]))
        elif owner.name == "stablehlo.dynamic_broadcast_in_dim":
            given = _given_size(owner.operands[1], k)
            if given is not None:
                todo.append(given)
    return found


def _piece(shape: ir.Value, d: int) -> ir.Value | None:
    """Entry d of a shape operand as the one-element piece it was concatenated from (jax's
    form; a one-element shape is its own piece), or None."""
    if isinstance(shape, ir.OpResult) and shape.owner.name == "stablehlo.concatenate":
        pieces = list(shape.owner.operands)
        if not all(ir.RankedTensorType(p.type).shape == [1] for p in pieces) or d >= len(pieces):
            return None
        return pieces[d]
    return shape if ir.RankedTensorType(shape.type).shape == [1] else None


def _given_size(shape: ir.Value, d: int) -> tuple | None:
    """The (value, dimension) whose get_dimension_size is entry d of a shape operand built by
    concatenating one-element pieces (jax's form), or None."""
    piece = _piece(shape, d)
    if piece is None:
        return None
    while isinstance(piece, ir.OpResult) and piece.owner.name in ("stablehlo.reshape",
                                                                 "stablehlo.convert"):
        piece = piece.owner.operands[0]
    if not (isinstance(piece, ir.OpResult) and piece.owner.name == "stablehlo.get_dimension_size"):
        return None
    return (piece.owner.operands[0], ir.IntegerAttr(piece.owner.attributes["dimension"]).value)


def _broadcast_variant(op, expanding, nonexpanding) -> ir.Value:
    operand, output = op.operands[0], op.operands[1]
    return extras.dynamic_broadcast_in_dim(
        operand, output, _dims(op, "broadcast_dimensions"), op.results[0].type,
        sorted(set(_dims(op, "known_expanding_dimensions")) | set(expanding)),
        sorted(set(_dims(op, "known_nonexpanding_dimensions")) | set(nonexpanding)))


def _composed(op: ir.Operation) -> ir.Value | None:
    """A dynamic broadcast of a dynamic broadcast whose only use it is, as one broadcast that
    keeps what both knew about non-expanding dimensions. IREE's canonicalizer merges such
    a pair itself but drops those attributes, and then rejects the merged broadcast as
    ambiguous (jax's softmax with a symbolic batch: rows summed, reshaped to [b, 1], broadcast
    to [b, n])."""
    inner = op.operands[0]
    if not (isinstance(inner, ir.OpResult)
            and inner.owner.name == "stablehlo.dynamic_broadcast_in_dim"
            and len(list(inner.uses)) == 1):
        return None
    inner_op = inner.owner
    inner_dims, outer_dims = _dims(inner_op, "broadcast_dimensions"), \
        _dims(op, "broadcast_dimensions")
    inner_known = set(_dims(inner_op, "known_nonexpanding_dimensions"))
    outer_known = set(_dims(op, "known_nonexpanding_dimensions"))
    if not inner_known and not outer_known:
        return None
    nonexpanding = [j for j, a in enumerate(inner_dims) if j in inner_known and a in outer_known]
    return extras.dynamic_broadcast_in_dim(
        inner_op.operands[0], op.operands[1], [outer_dims[a] for a in inner_dims],
        op.results[0].type, nonexpanding=nonexpanding)


def _dynamic_broadcast_in_dim(op):
    composed = _composed(op)
    if composed is not None:
        return [composed]
    same = _same_size(op)
    ambiguous = _ambiguous(op, same)
    known = set(_dims(op, "known_nonexpanding_dimensions"))
    if not ambiguous:
        if extras.is_unsigned_dynamic(op.operands[0]) or not set(same) <= known:
            return [_broadcast_variant(op, [], same)]
        return None
    if len(ambiguous) > MAX_AMBIGUOUS:
        raise PassError(f"{op.name}: {len(ambiguous)} operand dimensions may or may not "
                        f"expand (IREE needs to know; shlo branches on at most "
                        f"{MAX_AMBIGUOUS}): set known_expanding_dimensions or "
                        f"known_nonexpanding_dimensions", at=op)
    one = stablehlo.constant(np.array(1, np.int32))

    def branch(remaining, expanding, nonexpanding):
        if not remaining:
            return _broadcast_variant(op, expanding, nonexpanding + same)
        k, rest = remaining[0], remaining[1:]
        is_one = stablehlo.compare(extras.get_dimension_size(op.operands[0], k), one,
                                   comparison_direction="EQ")
        return stablehlo.if_(
            is_one, true_branch=lambda: branch(rest, expanding + [k], nonexpanding),
            false_branch=lambda: branch(rest, expanding, nonexpanding + [k]))
    return [branch(ambiguous, [], [])]


NARROW_FLOATS = ("f16", "bf16")


def _dot_general(op):
    """A dot_general as a broadcast multiply and a sum: each operand transposed to (batch,
    free, contracting) and broadcast to (batch, lhs free, rhs free, contracting). Used where
    that product is no larger than the larger operand or the result: an operand without free
    dimensions, or nothing contracted."""
    lhs, rhs = op.operands[0], op.operands[1]
    if all(ir.RankedTensorType(v.type).has_static_shape for v in (lhs, rhs)):
        return None
    _, kwargs = arguments(op)
    lb, rb, lc, rc = (list(kwargs.get(f"{side}_{kind}_dimensions") or ())
                      for kind in ("batching", "contracting") for side in ("lhs", "rhs"))
    lf = [d for d in range(ir.RankedTensorType(lhs.type).rank) if d not in lb + lc]
    rf = [d for d in range(ir.RankedTensorType(rhs.type).rank) if d not in rb + rc]
    if lf and rf and lc:
        return None
    result = ir.RankedTensorType(op.results[0].type)
    element = result.element_type
    wide = ir.F32Type.get() if str(element) in NARROW_FLOATS else element
    lhs, rhs = (Num(_transposed(v, order)).to(wide).value
                for v, order in ((lhs, lb + lf + lc), (rhs, rb + rf + rc)))
    nb, nlf, nrf, nc = len(lb), len(lf), len(rf), len(lc)
    shape = extras.size_vector([(lhs, d) for d in range(nb + nlf)]
                               + [(rhs, nb + d) for d in range(nrf)]
                               + [(lhs, nb + nlf + d) for d in range(nc)], "i32")
    static = ([_dim(lhs, d) for d in range(nb + nlf)] + [_dim(rhs, nb + d) for d in range(nrf)]
              + [_dim(lhs, nb + nlf + d) for d in range(nc)])
    product_type = ir.RankedTensorType.get(static, wide)
    lhs_dims = list(range(nb + nlf)) + [nb + nlf + nrf + d for d in range(nc)]
    rhs_dims = list(range(nb)) + [nb + nlf + d for d in range(nrf)] + \
        [nb + nlf + nrf + d for d in range(nc)]
    # every size comes from the operand itself, or equals one of its own (batch, contracting)
    product = Num(stablehlo.multiply(*(
        extras.dynamic_broadcast_in_dim(v, shape, dims, product_type,
                                        nonexpanding=range(len(dims)))
        for v, dims in ((lhs, lhs_dims), (rhs, rhs_dims)))))
    if nc:
        product = sum_over(product, range(nb + nlf + nrf, nb + nlf + nrf + nc))
    return [_cast(product.to(element).value, result)]


def _transposed(value: ir.Value, order: list[int]) -> ir.Value:
    return value if order == sorted(order) else stablehlo.transpose(value, permutation=order)


def _dim(value: ir.Value, d: int) -> int:
    return ir.RankedTensorType(value.type).shape[d]


def _collapse_groups(rank: int, collapsed: list[int]) -> list[list[int]]:
    """tensor.collapse_shape groups that drop the `collapsed` dimensions (each of size 1): each
    joins the next kept dimension's group, those after the last kept one its group."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for d in range(rank):
        pending.append(d)
        if d not in collapsed:
            groups.append(pending)
            pending = []
    if groups:
        groups[-1] += pending
    return groups


def _one_slice_gather(op):
    operand, indices, sizes = op.operands[0], op.operands[1], op.operands[2]
    _, kwargs = arguments(op)
    rank = ir.RankedTensorType(operand.type).rank
    index_type = ir.RankedTensorType(indices.type)
    collapsed = sorted(int(d) for d in kwargs.get("collapsed_slice_dims") or ())
    one_slice = index_type.rank == 1 and int(kwargs.get("index_vector_dim") or 0) == 0
    if not (one_slice and not kwargs.get("operand_batching_dims")
            and list(kwargs.get("offset_dims") or ()) == list(range(rank - len(collapsed)))):
        return None
    vector = ir.RankedTensorType.get([rank], ir.IntegerType.get_signless(64))
    i64 = vector.element_type
    index = Num(indices).to(i64).value
    place = {int(d): k for k, d in enumerate(kwargs.get("start_index_map") or ())}
    zero = stablehlo.constant([0], result_type=ir.RankedTensorType.get([1], i64))
    pieces = [stablehlo.slice(index, start_indices=[place[d]], limit_indices=[place[d] + 1])
              if d in place else zero for d in range(rank)]
    starts = stablehlo.concatenate(pieces, dimension=0) if rank > 1 else pieces[0]
    sizes = Num(sizes).to(i64).value
    known = constant_values(indices)
    if known is None or any(int(v) for v in known):     # (a start of 0 stays 0: x[:, :3])
        highest = stablehlo.subtract(extras.shape_of(operand), sizes)  # gather clamps starts
        starts = stablehlo.clamp(stablehlo.constant([0] * rank, result_type=vector), starts,
                                 highest)
    ones = stablehlo.constant([1] * rank, result_type=vector)
    result = ir.RankedTensorType(op.results[0].type)
    kept = iter(result.shape)
    sliced_type = ir.RankedTensorType.get([1 if d in collapsed else next(kept)
                                           for d in range(rank)], result.element_type)
    sliced = extras.real_dynamic_slice(operand, starts, stablehlo.add(starts, sizes), ones,
                                       sliced_type)
    if not collapsed:
        return [sliced]
    return [extras.collapse_shape(sliced, _collapse_groups(rank, collapsed), result)]


FULL = "full"          # a slice size that is its whole dimension's run-time size


def _slice_sizes(op) -> list | None:
    """Per operand dimension of a dynamic_gather: its slice size (an int) or FULL (the run-time
    size of that very dimension, read with get_dimension_size), or None when one is neither."""
    operand, sizes = op.operands[0], op.operands[2]
    rank = ir.RankedTensorType(operand.type).rank
    known = constant_values(sizes)
    out: list[int | str] = []
    for d in range(rank):
        if known is not None:
            out.append(int(known[d]))
            continue
        piece = _piece(sizes, d)
        value = constant_values(piece) if piece is not None else None
        if value is not None:
            out.append(int(value[0]))
            continue
        given = _given_size(sizes, d)
        if given is None or (operand, d) not in size_origins(*given):
            return None
        out.append(FULL)
    return out


def _whole_dimension_gather(op):
    """A dynamic_gather whose run-time slice sizes are whole dimensions (jax's x[:, [3, 1]]
    with a symbolic batch) as a gather with static slice sizes: those dimensions become
    batching dimensions, the indices broadcast along them."""
    operand, indices = op.operands[0], op.operands[1]
    _, kw = arguments(op)
    sizes = _slice_sizes(op)
    start_map = [int(d) for d in kw.get("start_index_map") or ()]
    full = [d for d, size in enumerate(sizes or ()) if size == FULL]
    if sizes is None or not full or any(d in start_map for d in full):
        return None
    index_type = ir.RankedTensorType(indices.type)
    ivd = int(kw.get("index_vector_dim") or 0)
    old_batch = [k for k in range(index_type.rank) if k != ivd]
    offset = [int(d) for d in kw.get("offset_dims") or ()]
    collapsed = [int(d) for d in kw.get("collapsed_slice_dims") or ()]
    obd = [int(d) for d in kw.get("operand_batching_dims") or ()]
    sibd = [int(d) for d in kw.get("start_indices_batching_dims") or ()]
    # operand dimensions that are offsets, in order, and the output position of each
    windowed = [d for d in range(len(sizes)) if d not in collapsed and d not in obd]
    position = dict(zip(windowed, offset))
    rank_out = ir.RankedTensorType(op.results[0].type).rank
    batch_positions = [p for p in range(rank_out) if p not in offset]
    new_positions = sorted(batch_positions + [position[d] for d in full])
    # the new indices: batch dims in output order, the index vector last
    source = dict(zip(batch_positions, old_batch))          # output position -> old dim
    new_rank = len(new_positions) + (1 if ivd < index_type.rank else 0)
    dims = [0] * index_type.rank
    sized = []                                  # (value, dimension) of each new dimension
    for k, p in enumerate(new_positions):
        if p in source:
            dims[source[p]] = k
            sized.append((indices, source[p]))
        else:
            sized.append((operand, next(d for d in full if position[d] == p)))
    if ivd < index_type.rank:
        dims[ivd] = new_rank - 1
        sized.append((indices, ivd))
    shape = [ir.RankedTensorType(value.type).shape[d] for value, d in sized]
    broadcast = extras.dynamic_broadcast_in_dim(
        indices, extras.size_vector(sized), dims,
        ir.RankedTensorType.get(shape, index_type.element_type))
    new_of = {p: k for k, p in enumerate(new_positions)}
    batching = sorted(obd + full)
    paired = dict(zip(obd, [dims[k] for k in sibd]))
    paired.update({d: new_of[position[d]] for d in full})
    return [stablehlo.gather(
        operand, broadcast,
        offset_dims=[p for p in offset if p not in {position[d] for d in full}],
        collapsed_slice_dims=collapsed, operand_batching_dims=batching,
        start_indices_batching_dims=[paired[d] for d in batching],
        start_index_map=start_map, index_vector_dim=new_rank if ivd >= index_type.rank
        else new_rank - 1,
        slice_sizes=[1 if size == FULL else size for size in sizes],
        result_type=op.results[0].type)]


def _dynamic_gather(op):
    return _one_slice_gather(op) or _whole_dimension_gather(op)


def _convolution(op):
    """A convolution over run-time sized spatial dimensions, without batch groups, with a
    window of at most MAX_WINDOW_POSITIONS: a sum of matmuls over shifted slices, batched over
    feature groups (convolution_to_dots)."""
    attrs = attributes(op)
    dims = CONV_DIMS.decode(attrs["dimension_numbers"])
    lhs, rhs = (ir.RankedTensorType(v.type) for v in op.operands)
    window = [rhs.shape[d] for d in dims["kernel_spatial_dimensions"]]
    if (all(lhs.shape[d] != DYN for d in dims["input_spatial_dimensions"])
            or not rhs.has_static_shape or lhs.shape[dims["input_feature_dimension"]] == DYN
            or group_counts(attrs)[1] != 1 or math.prod(window) > MAX_WINDOW_POSITIONS):
        return None
    return [sum_of_dots(op)]


def _dynamic_update_slice(op):
    """A dynamic_update_slice into a run-time sized operand (lax.scan stacking its outputs
    over a symbolic length, which IREE cannot legalize) as a `tensor.insert_slice` at
    the start indices clamped as the op clamps them, to [0, size - update size]."""
    operand, update, *starts = op.operands
    if ir.RankedTensorType(operand.type).has_static_shape:
        return None
    i64 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(64))
    zero = stablehlo.constant(np.array(0, np.int64))
    offsets, sizes = [], []
    for d, start in enumerate(starts):
        size = ir.RankedTensorType(update.type).shape[d]
        sizes.append(size if size != DYN else extras.dim(update, d))
        room = stablehlo.subtract(extras.size_scalar(operand, d), extras.size_scalar(update, d))
        wide = stablehlo.convert(start, result_type=i64)
        offsets.append(extras.index_scalar(stablehlo.clamp(zero, wide, room)))
    return [extras.insert_slice(update, operand, offsets, sizes)]


def _is_size(value: ir.Value) -> bool:
    """Whether `value` is a get_dimension_size, through integer converts and reshapes."""
    while isinstance(value, ir.OpResult) and value.owner.name in ("stablehlo.convert",
                                                                 "stablehlo.reshape"):
        if not isinstance(element_of(value.owner.operands[0]), ir.IntegerType):
            return False
        value = value.owner.operands[0]
    return isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.get_dimension_size"


def _size_to_f64(op):
    """A run-time size converted to f64 (jnp.median/quantile's (n - 1) * q under x64): IREE
    computes it on the host, whose VM has no i32 -> f64 cast ("failed to legalize operation
    'arith.sitofp'"). A size is below 2^52, so its f64 is exactly the bits 2^52 + n read as
    f64, less 2^52: an integer or and a float subtract, which the VM has."""
    x = op.operands[0]
    if str(element_of(op.results[0])) != "f64" or not _is_size(x):
        return None
    shape = ir.RankedTensorType(x.type).shape
    i64, f64 = ir.IntegerType.get_signless(64), ir.F64Type.get()
    wide = stablehlo.convert(x, result_type=ir.RankedTensorType.get(shape, i64))
    magic = stablehlo.constant(np.full(shape, 0x4330000000000000, np.int64))
    bits = stablehlo.bitcast_convert(stablehlo.or_(wide, magic),
                                     result_type=ir.RankedTensorType.get(shape, f64))
    return [stablehlo.subtract(bits, stablehlo.constant(np.full(shape, 2.0 ** 52)))]


def _dynamic_conv(op):
    """A dynamic_conv still here has padding known only at run time (shlo-refine-shapes makes
    it a convolution otherwise): jax's SAME padding with a stride over a symbolic length."""
    raise PassError("stablehlo.dynamic_conv: its padding depends on run-time sizes (jax's "
                    "SAME padding with a stride over a symbolic length), which shlo does not "
                    "compile yet: compile for concrete shapes (shlo.compile(..., "
                    "specialize=True), or --shlo-refine-arguments)", at=op)


def _get_dimension_size(op):
    if not extras.is_unsigned_dynamic(op.operands[0]):
        return None
    return [extras.get_dimension_size(op.operands[0], int(ir.IntegerAttr(
        op.attributes["dimension"]).value))]


RULES = {
    "stablehlo.dynamic_reshape": _dynamic_reshape,
    "stablehlo.dot_general": _dot_general,
    "stablehlo.dynamic_gather": _dynamic_gather,
    "stablehlo.get_dimension_size": _get_dimension_size,
    "stablehlo.dynamic_broadcast_in_dim": _dynamic_broadcast_in_dim,
    "stablehlo.convolution": _convolution,
    "stablehlo.dynamic_update_slice": _dynamic_update_slice,
    "stablehlo.convert": _size_to_f64,
    "stablehlo.dynamic_conv": _dynamic_conv,
}


@dataclasses.dataclass
class ExpandDynamicOps(Pass):
    """Rewrite dynamic ops IREE cannot compile (dynamic reshapes, ambiguous broadcasts, vector
    products, one-slice gathers, sizes of unsigned tensors, convolutions over run-time spatial
    sizes, updates of run-time sized tensors, sizes as f64)."""

    NAME = "shlo-expand-dynamic-ops"

    def run(self, op: ir.Operation) -> None:
        if any(o.name in RULES for o in nested_ops(op)):
            apply_rules(op, RULES, self.NAME)
