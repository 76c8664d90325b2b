"""The structural CHLO ops: constant, constant_like, top_k, ragged_dot and scan.

* top_k sorts (value, index) pairs along the last dimension, descending in TOTALORDER (NaN
  first), ties by index, and slices the first k; the comparator is a strict total order on
  integer keys, so the result is stable even where the backend's sort is not (IREE's CPU sort
  ignores both is_stable and TOTALORDER); the sort carries `shlo.top_k_order`, from which
  shlo-lower-sort knows the order (IREE's top-k on cpu and Vulkan);
* ragged_dot becomes ONE dot_general in every mode, never one dot per group: in mode 1 (the
  ragged dimension is a free lhs dimension) lhs gains a group dimension, masked by each
  row's group, that is contracted together with k against rhs's group dimension; in mode 2
  (the ragged dimension is contracted) the masked group dimension stays free and moves to
  the front of the result; mode 3 (a batch dimension is ragged) is a plain dot_general;
* scan becomes a stablehlo.while over the scan dimension (dynamic_slice in,
  dynamic_update_slice out, the body inlined, is_reverse walking backwards).
"""
from __future__ import annotations

import re

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..lib import builders as extras
from ..base import clone_ops
from ..lib.expr import (Num, const, element_of, generic_text, is_complex, is_float, sum_over,
    total_order_int, with_element)

# --- constant, constant_like -------------------------------------------------------------------


def _constant(m):
    """The same value in a stablehlo.constant (re-parsed from text: the Python bindings
    cannot hold every elements attribute, e.g. complex ones)."""
    text = generic_text(m.op).replace('"chlo.constant"', '"stablehlo.constant"', 1)
    op = ir.Operation.parse(text, context=m.op.context)
    ir.InsertionPoint.current.insert(op)
    return [op.results[0]]


_COMPLEX_NUMBER = re.compile(r"#complex\.number<:\s*\S+\s+([^,]+),\s*([^>]+)>")


def _scalar_value(attr: ir.Attribute):
    """A constant_like value attribute as a Python number."""
    text = str(attr)
    found = _COMPLEX_NUMBER.match(text)
    if found:
        return complex(float(found.group(1)), float(found.group(2)))
    a = attr.maybe_downcast() if hasattr(attr, "maybe_downcast") else attr
    if isinstance(a, ir.FloatAttr):
        return a.value
    if isinstance(a, ir.IntegerAttr):
        t = a.type.maybe_downcast()
        return bool(a.value) if t.width == 1 else (a.value if not t.is_unsigned
                                                   else a.value % (1 << t.width))
    raise PassError(f"shlo-legalize-chlo: chlo.constant_like value {text} is not a number")


def _constant_like(m):
    result = m.op.results[0].type
    value = _scalar_value(m.op.attributes["value"])
    if ir.RankedTensorType(result).has_static_shape:
        return [stablehlo.constant(value, result_type=result)]
    return [const(value, m.operands[0], element_of(m.op.results[0]))]


# --- top_k ---------------------------------------------------------------------------------------

# marks top_k's sort: descending in TOTALORDER for floats, by value for integers, ties by index
TOP_K_ORDER = "shlo.top_k_order"


def _top_k(m):
    k = ir.IntegerAttr(m.op.attributes["k"]).value
    return top_k(m.operands[0], k, list(m.op.results))


def top_k(x: ir.Value, k: int | ir.Value, results: list[ir.Value]) -> list[ir.Value]:
    """(values, indices) of the k largest elements along the last dimension, typed like
    `results`; k is a number or a run-time scalar (stablehlo.dynamic_top_k's operand)."""
    t = ir.RankedTensorType(x.type)
    last = t.rank - 1
    index_type = element_of(results[1])
    if t.has_static_shape:
        iota = stablehlo.iota(iota_dimension=last, result_type=with_element(t, index_type))
    else:
        shape = extras.shape_of(x)
        iota = extras.dynamic_iota(shape, last, with_element(t, index_type))
    ordered = total_order_int if is_float(t.element_type) else Num

    def descending(a, b, i, j):
        # ties go to the lower index: a strict total order, so the result is the stable one
        # whatever algorithm the backend sorts with (IREE's CPU sort is not stable)
        ka, kb = ordered(a), ordered(b)
        return ((ka > kb) | (ka.eq(kb) & (Num(i) < Num(j)))).value

    values, indices = extras.sort([x, iota], last, True, descending)
    # the order, for shlo-lower-sort (sort_keys reads orders off comparators of keys alone)
    values.owner.attributes[TOP_K_ORDER] = ir.BoolAttr.get(True)
    if t.has_static_shape and isinstance(k, int):
        limits = list(t.shape)
        limits[last] = k
        return leading([values, indices], limits)
    # run-time sizes or k: the first k along the last dimension, everything along the others
    i64 = ir.IntegerType.get_signless(64)
    vector = ir.RankedTensorType.get([t.rank], i64)
    if isinstance(k, int):
        k_last = stablehlo.constant([0] * last + [k], result_type=vector)
    else:
        k_last = stablehlo.broadcast_in_dim(Num(k).to(i64).value, broadcast_dimensions=[],
                                            result_type=vector)
    is_last = stablehlo.constant([False] * last + [True], result_type=ir.RankedTensorType.get(
        [t.rank], ir.IntegerType.get_signless(1)))
    limits = stablehlo.select(is_last, k_last, extras.shape_of(x))
    return leading([values, indices], limits, [r.type for r in results])


def leading(values: list[ir.Value], limits: list[int] | ir.Value,
            result_types: list[ir.Type] | None = None) -> list[ir.Value]:
    """The leading block of each sorted value up to `limits`: static limits (a list) slice
    behind an optimization barrier (IREE rewrites sort + slices into its own top-k, which
    drops the tie-break and is not stable; it cannot compile the barrier on dynamic shapes,
    where it does not rewrite the sort either); run-time limits (an i64 vector) are a
    real_dynamic_slice to `result_types`."""
    rank = ir.RankedTensorType(values[0].type).rank
    if isinstance(limits, list):
        return [stablehlo.slice(v, start_indices=[0] * rank, limit_indices=limits)
                for v in extras.optimization_barrier(values)]
    vector = ir.RankedTensorType.get([rank], ir.IntegerType.get_signless(64))
    starts = stablehlo.constant([0] * rank, result_type=vector)
    strides = stablehlo.constant([1] * rank, result_type=vector)
    return [extras.real_dynamic_slice(v, starts, limits, strides, t)
            for v, t in zip(values, result_types)]  # type: ignore[arg-type]  # given with them


def dynamic_top_k(op: ir.Operation) -> list[ir.Value]:
    """custom_call @stablehlo.dynamic_top_k(operand, k): jax's top_k under shape
    polymorphism, k a run-time scalar."""
    return top_k(op.operands[0], op.operands[1], list(op.results))


_top_k.direct = True  # type: ignore[attr-defined]  # its sort holds a comparator region


# --- ragged_dot ----------------------------------------------------------------------------------

_RAGGED_FIELDS = ("lhs_batching_dimensions", "rhs_batching_dimensions",
                  "lhs_contracting_dimensions", "rhs_contracting_dimensions",
                  "lhs_ragged_dimensions", "rhs_group_dimensions")


def _ragged_numbers(attr: ir.Attribute) -> dict[str, list[int]]:
    text = str(attr)
    out = {}
    for name in _RAGGED_FIELDS:
        found = re.search(name + r"\s*=\s*\[([^\]]*)\]", text)
        out[name] = [int(v) for v in found.group(1).split(",") if v.strip()] if found else []
    return out


def _precision(m) -> list[str] | None:
    if "precision_config" not in m.op.attributes:
        return None
    names = []
    for a in ir.ArrayAttr(m.op.attributes["precision_config"]):
        name = str(a).rstrip(">").split()[-1]
        names.append(name if name in ("HIGH", "HIGHEST") else "DEFAULT")
    return names


def _group_bounds(group_sizes: ir.Value):
    """(starts, ends) of each group, i64, shaped like group_sizes: ends are running sums."""
    gs = Num(group_sizes).to("i64")
    gt = gs.type
    g = gt.shape[-1]
    square = list(gt.shape) + [g]           # [..., i, j]: does group i end at or before j's end
    rank = gt.rank
    i = Num(stablehlo.iota(iota_dimension=rank - 1, result_type=_tensor(square, "i64")))
    j = Num(stablehlo.iota(iota_dimension=rank, result_type=_tensor(square, "i64")))
    spread = Num(stablehlo.broadcast_in_dim(gs.value, broadcast_dimensions=list(range(rank)),
                                            result_type=_tensor(square, "i64")))
    upto = Num(stablehlo.select((i <= j).value, spread.value, const(0, spread.value)))
    ends = sum_over(upto, [rank - 1])
    return ends - gs, ends


def _tensor(shape, element: str) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), ir.Type.parse(element))


def _masked_lhs(lhs: ir.Value, group_sizes: ir.Value, ragged: int, group_at: int,
                batch_dims: list[int]) -> ir.Value:
    """lhs with a group dimension inserted at `group_at`: entry j keeps the lhs values whose
    position along the ragged dimension lies in group j, zeros elsewhere."""
    lt = ir.RankedTensorType(lhs.type)
    gt = ir.RankedTensorType(group_sizes.type)
    g = gt.shape[-1]
    old_dims = [d for d in range(lt.rank + 1) if d != group_at]       # where lhs dims go
    shape = [0] * (lt.rank + 1)
    for src, dst in enumerate(old_dims):
        shape[dst] = lt.shape[src]
    shape[group_at] = g
    starts, ends = _group_bounds(group_sizes)
    # group_sizes' leading dimensions are lhs batch dimensions
    bounds_dims = [old_dims[b] for b in batch_dims[:gt.rank - 1]] + [group_at]
    i64 = _tensor(shape, "i64")
    pos = Num(stablehlo.iota(iota_dimension=old_dims[ragged], result_type=i64))
    lo = Num(stablehlo.broadcast_in_dim(starts.value, broadcast_dimensions=bounds_dims,
                                        result_type=i64))
    hi = Num(stablehlo.broadcast_in_dim(ends.value, broadcast_dimensions=bounds_dims,
                                        result_type=i64))
    wide = stablehlo.broadcast_in_dim(lhs, broadcast_dimensions=old_dims,
                                      result_type=with_element(i64, lt.element_type))
    inside = (pos >= lo) & (pos < hi)
    return stablehlo.select(inside.value, wide, const(0, wide))


def _ragged_dot(m):
    lhs, rhs, group_sizes = m.operands
    n = _ragged_numbers(m.op.attributes["ragged_dot_dimension_numbers"])
    result = ir.RankedTensorType(m.op.results[0].type)
    for v in (lhs, rhs, group_sizes):
        if not ir.RankedTensorType(v.type).has_static_shape:
            raise PassError(f"shlo-legalize-chlo: chlo.ragged_dot with dynamic shapes is not "
                            f"supported: {v.type}", at=m.op)
    if len(n["lhs_ragged_dimensions"]) != 1:
        raise PassError("shlo-legalize-chlo: chlo.ragged_dot needs exactly one lhs ragged "
                        "dimension", at=m.op)
    ragged = n["lhs_ragged_dimensions"][0]
    lb, rb = n["lhs_batching_dimensions"], n["rhs_batching_dimensions"]
    lc, rc = n["lhs_contracting_dimensions"], n["rhs_contracting_dimensions"]
    precision = _precision(m)
    extra = {"precision_config": precision} if precision else {}
    lt = ir.RankedTensorType(lhs.type)
    if ragged in lb:                                            # mode 3
        return [stablehlo.dot_general(lhs, rhs, lhs_batching_dimensions=lb,
                                      rhs_batching_dimensions=rb, lhs_contracting_dimensions=lc,
                                      rhs_contracting_dimensions=rc, result_type=result,
                                      **extra)]
    if ragged in lc:                                            # mode 2: group dim in front
        masked = _masked_lhs(lhs, group_sizes, ragged, 0, lb)
        shift = [d + 1 for d in lb], [d + 1 for d in lc]
        batch = [result.shape[1 + i] for i in range(len(lb))]
        rest = list(result.shape[1 + len(lb):])
        dot_shape = batch + [result.shape[0]] + rest
        out = stablehlo.dot_general(masked, rhs, lhs_batching_dimensions=shift[0],
                                    rhs_batching_dimensions=rb,
                                    lhs_contracting_dimensions=shift[1],
                                    rhs_contracting_dimensions=rc,
                                    result_type=ir.RankedTensorType.get(
                                        dot_shape, result.element_type), **extra)
        if not lb:
            return [out]
        order = [len(lb)] + list(range(len(lb))) + list(range(len(lb) + 1, len(dot_shape)))
        return [stablehlo.transpose(out, permutation=order)]
    group = n["rhs_group_dimensions"]                            # mode 1
    if len(group) != 1:
        raise PassError("shlo-legalize-chlo: chlo.ragged_dot with a ragged free lhs dimension "
                        "needs exactly one rhs group dimension", at=m.op)
    masked = _masked_lhs(lhs, group_sizes, ragged, lt.rank, lb)
    return [stablehlo.dot_general(masked, rhs, lhs_batching_dimensions=lb,
                                  rhs_batching_dimensions=rb,
                                  lhs_contracting_dimensions=lc + [lt.rank],
                                  rhs_contracting_dimensions=rc + group,
                                  result_type=result, **extra)]


# --- scan ----------------------------------------------------------------------------------------

def _scalar(value: int) -> ir.Value:
    return stablehlo.constant(np.int64(value), result_type=_tensor([], "i64"))


def _zeros(t: ir.Type) -> ir.Value:
    rt = ir.RankedTensorType(t)
    if not rt.has_static_shape:
        raise PassError(f"shlo-legalize-chlo: chlo.scan with a dynamic result {rt} is not "
                        f"supported")
    value = 0j if is_complex(rt.element_type) else 0
    return stablehlo.constant(value, result_type=rt)


def _segments(op: ir.Operation, name: str) -> list[int]:
    return [int(v) for v in ir.DenseI32ArrayAttr(op.attributes[name])]


def _scan(m):
    op = m.op
    input_count, inits_count = _segments(op, "operandSegmentSizes")
    outputs_count = len(op.results) - inits_count
    inputs, inits = list(m.operands[:input_count]), list(m.operands[input_count:])
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    reverse = ("is_reverse" in op.attributes
               and ir.BoolAttr(op.attributes["is_reverse"]).value)
    size = ir.RankedTensorType((inputs[0] if inputs else op.results[0]).type).shape[dim]
    if size == ir.ShapedType.get_dynamic_size():
        raise PassError("shlo-legalize-chlo: chlo.scan over a dynamic dimension is not "
                        "supported", at=op)
    outputs0 = [_zeros(op.results[i].type) for i in range(outputs_count)]
    body = op.regions[0].blocks[0]

    def cond(i, *_carried):
        return stablehlo.compare(i, _scalar(size), comparison_direction="LT")

    def step(i, *carried):
        carries, outs = list(carried[:inits_count]), list(carried[inits_count:])
        pos = Num(_scalar(size - 1)) - Num(i) if reverse else Num(i)
        slices = [_slice_at(x, dim, pos.value) for x in inputs]
        results = inline_block(body, slices + carries)
        new_outs = [_update_at(o, r, dim, pos.value) for o, r in zip(outs, results)]
        return [stablehlo.add(i, _scalar(1)), *results[outputs_count:], *new_outs]

    final = extras.while_([_scalar(0), *inits, *outputs0], cond, step)
    return final[1 + inits_count:] + final[1:1 + inits_count]


_scan.direct = True  # type: ignore[attr-defined]  # the while loop holds regions


def _slice_at(x: ir.Value, dim: int, pos: ir.Value) -> ir.Value:
    """x's slice at `pos` along `dim`, with that dimension dropped."""
    t = ir.RankedTensorType(x.type)
    sizes = list(t.shape)
    sizes[dim] = 1
    starts = [pos if d == dim else _scalar(0) for d in range(t.rank)]
    piece = extras.dynamic_slice(x, starts, sizes)
    dropped = [s for d, s in enumerate(t.shape) if d != dim]
    return stablehlo.reshape(piece, result_type=ir.RankedTensorType.get(dropped, t.element_type))


def _update_at(out: ir.Value, value: ir.Value, dim: int, pos: ir.Value) -> ir.Value:
    t = ir.RankedTensorType(out.type)
    sizes = list(t.shape)
    sizes[dim] = 1
    piece = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(sizes, t.element_type))
    starts = [pos if d == dim else _scalar(0) for d in range(t.rank)]
    return extras.dynamic_update_slice(out, piece, starts)


def inline_block(block: ir.Block, arguments: list[ir.Value]) -> list[ir.Value]:
    """Clone the block's ops at the insertion point with its arguments bound to `arguments`;
    the values its terminator returns."""
    ops = list(block.operations)
    mapping = clone_ops(ops[:-1], dict(zip(block.arguments, arguments)))
    return [mapping.get(v, v) for v in ops[-1].operation.operands]


RULES = {
    "chlo.constant": _constant,
    "chlo.constant_like": _constant_like,
    "chlo.top_k": _top_k,
    "chlo.ragged_dot": _ragged_dot,
    "chlo.scan": _scan,
}
