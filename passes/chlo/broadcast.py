"""CHLO's broadcasting ops (21 of them) and constant_like: broadcast the operands, then apply
the elementwise StableHLO op (or the elementwise CHLO kernel for zeta, polygamma, next_after).

Operands broadcast the numpy way (trailing dimensions aligned), or along any valid
`broadcast_dimensions` mapping of the lower-rank operand (the C++ lowering accepts only
numpy's prefix padding there). Static shapes use stablehlo.broadcast_in_dim; dynamic and
bounded ones stablehlo.dynamic_broadcast_in_dim to the result extents, computed in plain
StableHLO (get_dimension_size, numpy's size-1 rule as a select). Where the sizes meeting in
a dimension are not known to agree until run time, the broadcasts sit in a `shape.assuming`
region guarded by `shape.cstr_broadcastable` of each operand's shape laid out in the
result's rank (so any mapping, not only numpy's, is checked): shlo-legalize-shape turns that
into a run-time check that fails with the op's name, where IREE alone computes garbage.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.types import DYN
from ..lib import builders as extras
from .arith import next_after_rule
from ..lib.expr import Match, Num, select
from .gamma import polygamma_rule, zeta_rule

# chlo.broadcast_<name> -> builder of the elementwise op it becomes
ELEMENTWISE = {
    "add": stablehlo.add, "subtract": stablehlo.subtract, "multiply": stablehlo.multiply,
    "divide": stablehlo.divide, "maximum": stablehlo.maximum, "minimum": stablehlo.minimum,
    "power": stablehlo.power, "remainder": stablehlo.remainder, "and": stablehlo.and_,
    "or": stablehlo.or_, "xor": stablehlo.xor, "atan2": stablehlo.atan2,
    "complex": stablehlo.complex, "shift_left": stablehlo.shift_left,
    "shift_right_arithmetic": stablehlo.shift_right_arithmetic,
    "shift_right_logical": stablehlo.shift_right_logical,
}
# chlo.broadcast_<name> -> the rule of the elementwise CHLO op it becomes
ELEMENTWISE_CHLO = {"zeta": zeta_rule, "polygamma": polygamma_rule,
                    "next_after": next_after_rule}


def _mapping(op: ir.Operation) -> list[int] | None:
    if "broadcast_dimensions" not in op.attributes:
        return None
    return [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"])]


def operand_dims(op: ir.Operation, operands, result_rank: int) -> list[list[int]]:
    """For each operand, the result dimension each of its dimensions maps to."""
    mapping = _mapping(op)
    ranks = [ir.RankedTensorType(v.type).rank for v in operands]
    small = 0 if len(ranks) == 2 and ranks[0] <= ranks[1] else 1
    out = []
    for i, r in enumerate(ranks):
        if mapping is not None and len(ranks) == 2 and i == small:
            out.append(list(mapping))
        else:
            out.append(list(range(result_rank - r, result_rank)))
    return out


def broadcast_operands(m) -> list[ir.Value]:
    """The operands broadcast to the op's result shape: broadcast_in_dim for static shapes,
    dynamic_broadcast_in_dim to extents computed at runtime otherwise."""
    result = ir.RankedTensorType(m.op.results[0].type)
    shape = list(result.shape)
    mappings = operand_dims(m.op, m.operands, len(shape))
    if result.has_static_shape:
        out = []
        for value, dims in zip(m.operands, mappings):
            vt = ir.RankedTensorType(value.type)
            if list(vt.shape) == shape:
                out.append(value)
                continue
            target = ir.RankedTensorType.get(shape, vt.element_type)
            out.append(stablehlo.broadcast_in_dim(value, broadcast_dimensions=dims,
                                                  result_type=target))
        return out
    memo: dict = {}          # (operand, dimension) -> its size, built once
    extents = _result_extents(result, m.operands, mappings, memo)
    targets = [ir.RankedTensorType.get(shape, ir.RankedTensorType(v.type).element_type,
                                       result.encoding) for v in m.operands]

    def broadcasts():
        out = []
        for value, dims, target in zip(m.operands, mappings, targets):
            expanding, nonexpanding = _expansion(value, dims, m.operands, mappings, shape)
            out.append(extras.dynamic_broadcast_in_dim(value, extents, dims, target, expanding,
                                                       nonexpanding))
        return out
    if not _needs_check(result, m.operands, mappings):
        return broadcasts()
    shapes = [_shape_in_result_rank(v, dims, len(shape), memo)
              for v, dims in zip(m.operands, mappings)]
    if any(size not in (DYN, 1) for size in shape):
        shapes.append(_index_extents([stablehlo.constant(
            [1 if size == DYN else size], result_type=_i64x1()) for size in shape]))
    return extras.shape_assuming(extras.shape_cstr_broadcastable(shapes), targets, broadcasts)


def _i64x1() -> ir.RankedTensorType:
    return ir.RankedTensorType.get([1], ir.IntegerType.get_signless(64))


def _needs_check(result: ir.RankedTensorType, operands, mappings) -> bool:
    """Whether some result dimension gets sizes that may disagree at run time: two or more
    sizes other than a static 1 (the result type's own static size counts), one dynamic."""
    for d, size in enumerate(result.shape):
        sizes = [] if size == DYN else [size]
        for value, dims in zip(operands, mappings):
            if d in dims:
                sizes.append(ir.RankedTensorType(value.type).shape[dims.index(d)])
        sizes = [x for x in sizes if x != 1]
        if DYN in sizes and len(sizes) >= 2:
            return True
    return False


def _shape_in_result_rank(value: ir.Value, dims: list[int], rank: int, memo: dict) -> ir.Value:
    """The operand's runtime shape laid out in the result's dimensions (1 where it has none),
    as the extent tensor shape.cstr_broadcastable takes."""
    return _index_extents([_extent(value, dims.index(d), memo).value if d in dims else
                           stablehlo.constant([1], result_type=_i64x1()) for d in range(rank)])


def _index_extents(parts: list[ir.Value]) -> ir.Value:
    joined = parts[0] if len(parts) == 1 else stablehlo.concatenate(parts, dimension=0)
    return extras.index_cast(joined, ir.IndexType.get())


def _expansion(value, dims, operands, mappings, shape):
    """Operand dimensions known to expand (static 1 into a larger result) and known not to
    (static sizes other than 1, and dynamic sizes no other operand contributes to, which
    therefore are the result's size). Backends need these to lower dynamic broadcasts (IREE
    rejects a dynamic dimension that might or might not expand)."""
    expanding, nonexpanding = [], []
    for k, d in enumerate(dims):
        size = ir.RankedTensorType(value.type).shape[k]
        if size == 1:
            if shape[d] != 1:
                expanding.append(k)
        elif size != DYN:
            nonexpanding.append(k)
        elif not any(d in other_dims and ir.RankedTensorType(other.type).shape[
                other_dims.index(d)] != 1 for other, other_dims in zip(operands, mappings)
                if other is not value):
            nonexpanding.append(k)
    return expanding, nonexpanding


def _extent(value: ir.Value, dim: int, memo: dict) -> Num:
    """The size of one dimension as tensor<1xi64> (a constant when it is static), built once
    per (value, dimension) in `memo`."""
    if (value, dim) in memo:
        return memo[value, dim]
    memo[value, dim] = _new_extent(value, dim)
    return memo[value, dim]


def _new_extent(value: ir.Value, dim: int) -> Num:
    size = ir.RankedTensorType(value.type).shape[dim]
    one_i64 = _i64x1()
    if size != DYN:
        return Num(stablehlo.constant([size], result_type=one_i64))
    runtime = Num(extras.get_dimension_size(value, dim)).to("i64")
    return Num(stablehlo.reshape(runtime.value, result_type=one_i64))


def _result_extents(result: ir.RankedTensorType, operands, mappings, memo: dict) -> ir.Value:
    """The broadcast result's runtime shape (tensor<rank x i64>): per dimension, the static
    size when the result type knows it, else numpy's rule on the operands' sizes (a size
    of 1 yields to the other operand's)."""
    one_i64 = ir.RankedTensorType.get([1], ir.IntegerType.get_signless(64))
    parts = []
    for d, size in enumerate(result.shape):
        if size != DYN:
            parts.append(stablehlo.constant([size], result_type=one_i64))
            continue
        extent = None
        for value, dims in zip(operands, mappings):
            if d not in dims or ir.RankedTensorType(value.type).shape[dims.index(d)] == 1:
                continue
            size_here = _extent(value, dims.index(d), memo)
            extent = size_here if extent is None else select(extent.eq(1), size_here, extent)
        parts.append((extent or Num(stablehlo.constant([1], result_type=one_i64))).value)
    return parts[0] if len(parts) == 1 else stablehlo.concatenate(parts, dimension=0)


def _elementwise(builder):
    def rule(m):
        return [builder(*broadcast_operands(m))]
    return rule


def _elementwise_chlo(rule):
    def broadcasting_rule(m):
        return rule(Match(m.op, broadcast_operands(m)))
    return broadcasting_rule


def _compare(m):
    lhs, rhs = broadcast_operands(m)
    kwargs = {"comparison_direction": enum_name(m.op.attributes["comparison_direction"])}
    if "compare_type" in m.op.attributes:
        kwargs["compare_type"] = enum_name(m.op.attributes["compare_type"])
    return [stablehlo.compare(lhs, rhs, **kwargs)]


def _select(m):
    pred, on_true, on_false = broadcast_operands(m)
    return [stablehlo.select(pred, on_true, on_false)]


RULES = {
    **{f"chlo.broadcast_{name}": _elementwise(b) for name, b in ELEMENTWISE.items()},
    **{f"chlo.broadcast_{name}": _elementwise_chlo(r) for name, r in ELEMENTWISE_CHLO.items()},
    "chlo.broadcast_compare": _compare,
    "chlo.broadcast_select": _select,
}
