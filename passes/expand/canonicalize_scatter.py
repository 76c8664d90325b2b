"""shlo-canonicalize-scatter: rewrite every stablehlo.scatter into the one form IREE lowers
correctly, with out-of-bounds updates dropped as the spec says.

IREE rejects most dimension numbers and writes out of bounds for indices outside the operand
(docs/iree_gaps.md#shlo-canonicalize-scatter), while the spec
discards each update element whose result index is out of bounds. The canonical form:

* operand transposed so the indexed dimensions come first, in index-vector order, then the
  others in order; batching dimensions are indexed dimensions whose index is an iota;
* indices `[N, k]` (index_vector_dim = 1), every indexed dimension inserted
  (`inserted_window_dims = scatter_dims_to_operand_dims = [0, ..., k-1]`), so a window spans
  only the dimensions that start at 0; an indexed dimension with a window of size w becomes w
  scatter points (start + 0, ..., start + w - 1), which also makes the spec's per-element
  bounds rule a per-point rule;
* updates `[N, window of the other dimensions]`;
* a point whose index is out of bounds is sent to an extra row padded onto the operand's first
  dimension and sliced off afterwards (skipped when the indices are constants in bounds).

The rewritten op carries `shlo.canonical` so the rule leaves it alone; a scatter with no update
elements becomes its inputs. Dynamic shapes are left to IREE, except unsigned ones: IREE
fails on a dynamically shaped unsigned scatter (jax's x.at[0].set(7) on a ui8 array of
symbolic size), so such a scatter runs on
signless integers of the same width, its body rebuilt to order them as unsigned ones (a
compare, and maximum and minimum as a compare and a select, on values with the sign bit
flipped); a body with other order-dependent ops stays.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import constant_values
from shlo.errors import PassError
from ..lib.expr import Num, attributes, clone_retyped, element_of, select, with_element
from ..base import clone_ops, reads_narrow_values
from ..lib.builders import FUSION_BARRIER, fence, is_unsigned_dynamic
from .index_vectors import (IndexVectors, edge_pad, inverse, is_static, reshape, shape_of, tensor,
    transpose)
from ..op_rules import CANONICAL, RulesPass

# ops whose results IREE already computes apart from their readers, or holds as globals
APART = (FUSION_BARRIER, "stablehlo.optimization_barrier", "stablehlo.constant")
VIEWS = ("stablehlo.reshape", "stablehlo.transpose")


def _scatter(op: ir.Operation):
    if CANONICAL in op.attributes:
        return None
    (inputs, indices, updates), kw = arguments(op)
    if not is_static(*inputs, indices, *updates):
        return _signless_dynamic(op, inputs, indices, updates, kw)
    shape = shape_of(inputs[0])
    rank = len(shape)
    if 0 in shape_of(updates[0]):
        return list(inputs)                 # no update element: nothing happens
    if len(inputs) > 1:
        return _split(op, inputs, indices, updates, kw)
    iwd, uwd = list(kw.get("inserted_window_dims", ())), list(kw["update_window_dims"])
    obd = list(kw.get("input_batching_dims", ()))
    if reads_narrow_values(indices):
        indices = _computed_apart(indices)
    vectors = IndexVectors.of(indices, kw.get("index_vector_dim", 0),
                              kw["scatter_dims_to_operand_dims"],
                              list(zip(obd, kw.get("scatter_indices_batching_dims", ()))))
    window_dims = [d for d in range(rank) if d not in iwd and d not in obd]
    window_size = {d: shape_of(updates[0])[uwd[i]] for i, d in enumerate(window_dims)}
    # IREE takes only whole slices of the dimensions that are not indexed: index the others
    # too (from 0)
    partial = [d for d in range(rank)
               if d not in vectors.dims and window_size.get(d, 1) != shape[d]]
    vectors = vectors.with_zero_components(partial)
    indexed = vectors.dims
    expanded = [d for d in indexed if d in window_size]         # indexed and windowed
    rest = [d for d in range(rank) if d not in indexed]         # whole, from 0
    rest_window = [shape[d] for d in rest]

    points = _points(vectors, expanded, [window_size[d] for d in expanded])
    n = int(np.prod(shape_of(points)[:-1], dtype=np.int64))
    scatter_dims = [d for d in range(len(shape_of(updates[0]))) if d not in uwd]
    # updates as [scatter dims..., windows of the expanded dims..., windows of the rest...]
    windowed = expanded + [d for d in rest if d in window_size]
    order = scatter_dims + [uwd[window_dims.index(d)] for d in windowed]
    new_updates = [_computed_apart(reshape(transpose(u, order), [n] + rest_window))
                   for u in updates]

    permutation = indexed + rest
    operands = [transpose(x, permutation) for x in inputs]
    unit = not indexed                       # nothing indexed: index a unit dimension instead
    if unit:
        operands = [reshape(x, [1] + shape_of(x)) for x in operands]
        points = stablehlo.constant(0, result_type=tensor([n, 1], "i32"))
    else:
        points = reshape(points, [n, len(indexed)])
    k = max(len(indexed), 1)
    first = shape_of(operands[0])[0]
    padded = not unit and not _known_in_bounds(kw, indices, shape, window_size)
    if padded:
        bounds = [shape[d] for d in indexed]
        points = _send_out_of_bounds_to_row(points, bounds)
        operands = [edge_pad(x, 0, [0] * len(shape), [1] + [0] * (len(shape) - 1))
                    for x in operands]
    kw.update(update_window_dims=list(range(1, 1 + len(rest))),
              inserted_window_dims=list(range(k)), input_batching_dims=(),
              scatter_indices_batching_dims=(), scatter_dims_to_operand_dims=list(range(k)),
              index_vector_dim=1, indices_are_sorted=False,
              unique_indices=kw.get("unique_indices", False) and not padded)
    kw.pop("result_type", None)
    results = stablehlo.scatter(operands, points, new_updates, **kw)
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    results[0].owner.attributes[CANONICAL] = ir.UnitAttr.get()
    out = []
    for r in results:
        if padded:
            s = shape_of(r)
            r = stablehlo.slice(r, start_indices=[0] * len(s), limit_indices=[first] + s[1:])
        if unit:
            r = reshape(r, shape_of(r)[1:])
        out.append(transpose(r, inverse(permutation)))
    return out


# computed indices and updates of at least this many elements go to the scatter through a
# fusion barrier
APART_ELEMENTS = 1024


def _computed_apart(value: ir.Value) -> ir.Value:
    """Indices or updates, computed in dispatches of their own when an op other than a
    constant, or a reshape or transpose of an argument or of a barrier, computes them: IREE's
    cpu backend fused a widening convert (ui16 or i16 to i32, f16 to f32) into the scatter's
    dispatch and kept all of its result on the stack (65536 bytes for 16384 updates or
    indices where 32768 are allowed; seed 44 program 88). A transposed argument it reads in
    place (behind a barrier: 1.29x the time); other computed updates cost nothing apart (exp
    of 1M f32 updates: 0.87x, paired). Indices go apart only when computed from 8- or 16-bit
    numbers (those alone failed; a max-pool gradient's positions took 1.05-1.19x apart)."""
    source = value
    while isinstance(source.owner, ir.Operation | ir.OpView) and \
            source.owner.name in VIEWS:
        source = source.owner.operands[0]
    if isinstance(source.owner, ir.Block) or source.owner.name in APART or \
            int(np.prod(shape_of(value))) < APART_ELEMENTS:
        return value
    return fence([value])[0]


# body ops that compute the same bits on unsigned and signless integers
_SIGN_BLIND = {"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.and",
               "stablehlo.or", "stablehlo.xor", "stablehlo.not", "stablehlo.select",
               "stablehlo.constant", "stablehlo.return"}
_ORDERED = {"stablehlo.maximum": "GT", "stablehlo.minimum": "LT"}


def _unsigned_compare(a: ir.Value, b: ir.Value, direction: str) -> ir.Value:
    """Signless integers compared as unsigned ones: with their sign bits flipped, signed."""
    width = ir.IntegerType(element_of(a)).width
    flip = stablehlo.constant(-(1 << (width - 1)), result_type=a.type)
    return stablehlo.compare(stablehlo.xor(a, flip), stablehlo.xor(b, flip),
                             comparison_direction=direction)


def _signless_dynamic(op, inputs, indices, updates, kw):
    """A dynamically shaped unsigned scatter on signless integers of the same width."""
    if not any(is_unsigned_dynamic(x) for x in inputs):
        return None
    body = op.regions[0].blocks[0]
    allowed = _SIGN_BLIND | set(_ORDERED) | {"stablehlo.compare"}
    if any(inner.name not in allowed for inner in body.operations):
        return None

    def to_signless(t: ir.Type) -> ir.Type:
        element = ir.RankedTensorType(t).element_type
        if isinstance(element, ir.IntegerType) and element.is_unsigned:
            return with_element(t, ir.IntegerType.get_signless(element.width))
        return t

    def unsigned_order(inner, operands):
        """Order-dependent ops on unsigned operands, and unsigned constants, made signless."""
        unsigned = any(isinstance(element_of(v), ir.IntegerType)
                       and element_of(v).is_unsigned for v in inner.operands)
        if inner.name in _ORDERED and unsigned:
            a, b = operands
            return [stablehlo.select(_unsigned_compare(a, b, _ORDERED[inner.name]), a, b)]
        if inner.name == "stablehlo.compare" and unsigned:
            a, b = operands
            return [_unsigned_compare(a, b, enum_name(
                inner.attributes["comparison_direction"]))]
        if inner.name == "stablehlo.constant":
            value = ir.Operation.create(inner.name, results=[inner.results[0].type],
                                        attributes=attributes(inner)).result
            signless = to_signless(value.type)
            return [value if signless == value.type else
                    stablehlo.bitcast_convert(value, result_type=signless)]
        return None

    cast = [stablehlo.bitcast_convert(v, result_type=to_signless(v.type)) for v in inputs]
    cast_updates = [stablehlo.bitcast_convert(v, result_type=to_signless(v.type))
                    for v in updates]
    kw.pop("result_type", None)
    kw.setdefault("index_vector_dim", 0)
    kw["update_computation"] = lambda *args: clone_retyped(body, args, to_signless,
                                                           unsigned_order)
    results = stablehlo.scatter(cast, indices, cast_updates, **kw)
    results = results if isinstance(results, (list, tuple)) else [results]
    return [stablehlo.bitcast_convert(r, result_type=old.type)
            for r, old in zip(results, op.results)]


def _split(op, inputs, indices, updates, kw) -> list[ir.Value]:
    """One scatter per input (IREE: "NYI variadic operands scatter"), when result k of the
    update computation reads only its arguments k and n + k."""
    block = op.regions[0].blocks[0]
    n = len(inputs)
    ops = [o.operation for o in block.operations]
    returned = list(ops[-1].operands)
    bodies = []
    for k, value in enumerate(returned):
        needed, args = _producers(value, block)
        if not args <= {k, n + k} or any(len(o.regions) for o in needed):
            raise PassError(f"shlo-canonicalize-scatter: a scatter of {n} inputs whose update "
                            f"computation combines them (result {k} reads arguments "
                            f"{sorted(args)}) cannot be split, and IREE 3.13 has no variadic "
                            f"scatter", at=op)
        bodies.append(_sub_body(block, [o for o in ops if o in needed], k, n, value))
    kw.pop("result_type", None)
    kw.pop("update_computation", None)
    return [stablehlo.scatter([x], indices, [u], update_computation=body, **kw)
            for x, u, body in zip(inputs, updates, bodies)]


def _producers(value: ir.Value, block: ir.Block):
    """(ops of `block` that `value` depends on, positions of the block arguments it reads)."""
    needed, args, todo = set(), set(), [value]
    arguments_of = {a: i for i, a in enumerate(block.arguments)}
    while todo:
        v = todo.pop()
        if v in arguments_of:
            args.add(arguments_of[v])
            continue
        owner = v.owner.operation if isinstance(v.owner, (ir.Operation, ir.OpView)) else None
        if owner is not None and owner not in needed and owner.block == block:
            needed.add(owner)
            todo.extend(owner.operands)
    return needed, args


def _sub_body(block: ir.Block, ops: list, k: int, n: int, result: ir.Value):
    """A region callable computing `result` from arguments k and n + k of `block`."""
    def body(current, update):
        mapping = clone_ops(ops, {block.arguments[k]: current, block.arguments[n + k]: update})
        return mapping.get(result, result)
    return body


def _points(vectors: IndexVectors, expanded: list[int], sizes: list[int]) -> ir.Value:
    """Indices shaped batch + sizes + [k]: every start index plus each offset of the windows
    of the `expanded` dimensions."""
    x = vectors.value
    if not expanded:
        return x
    batch = vectors.batch_shape
    k = len(vectors.dims)
    shape = batch + sizes + [k]
    element = ir.RankedTensorType(x.type).element_type
    x = stablehlo.broadcast_in_dim(x, broadcast_dimensions=list(range(len(batch)))
                                   + [len(shape) - 1], result_type=tensor(shape, element))
    column = tensor(batch + sizes + [1], element)
    parts = []
    for d in vectors.dims:
        if d in expanded:
            parts.append(stablehlo.iota(iota_dimension=len(batch) + expanded.index(d),
                                        result_type=column))
        else:
            parts.append(stablehlo.constant(0, result_type=column))
    offsets = parts[0] if k == 1 else stablehlo.concatenate(parts, dimension=len(shape) - 1)
    return stablehlo.add(x, offsets)


def _send_out_of_bounds_to_row(points: ir.Value, bounds: list[int]) -> ir.Value:
    """Rows of `points` with a component outside [0, bounds) become [bounds[0], 0, ..., 0]."""
    n, k = shape_of(points)
    element = ir.RankedTensorType(points.type).element_type
    limit = stablehlo.broadcast_in_dim(
        stablehlo.constant(np.array(bounds), result_type=tensor([k], element)),
        broadcast_dimensions=[1], result_type=tensor([n, k], element))
    p = Num(points)
    inside = (p >= 0) & (p < limit)
    true = stablehlo.constant(True, result_type=tensor([], "i1"))
    row_inside = stablehlo.reduce([inside.value], [true], dimensions=[1],
                                  body=lambda a, b: stablehlo.and_(a, b))
    row_inside = stablehlo.broadcast_in_dim(row_inside, broadcast_dimensions=[0],
                                            result_type=tensor([n, k], "i1"))
    trash = stablehlo.broadcast_in_dim(
        stablehlo.constant(np.array([bounds[0]] + [0] * (k - 1)), result_type=tensor([k], element)),
        broadcast_dimensions=[1], result_type=tensor([n, k], element))
    return select(Num(row_inside), p, Num(trash)).value


def _known_in_bounds(kw, indices, shape, window_size) -> bool:
    """True when constant indices keep every window inside the operand."""
    values = constant_values(indices)
    if values is None:
        return False
    ivd = kw.get("index_vector_dim", 0)
    vectors = values[..., None] if ivd == values.ndim else np.moveaxis(values, ivd, -1)
    for c, d in enumerate(kw["scatter_dims_to_operand_dims"]):
        start = vectors[..., c]
        if np.any(start < 0) or np.any(start + window_size.get(d, 1) > shape[d]):
            return False
    return True


@dataclasses.dataclass
class CanonicalizeScatter(RulesPass):
    """Rewrite stablehlo.scatter into IREE's canonical form, dropping out-of-bounds updates."""

    NAME = "shlo-canonicalize-scatter"
    RULES = {"stablehlo.scatter": _scatter}
