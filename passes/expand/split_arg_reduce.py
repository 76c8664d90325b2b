"""shlo-split-arg-reduce: an arg-max/arg-min `stablehlo.reduce` becomes two one-operand reduces.

jnp.argmax, tf.argmax and XLA's ArgMax lower to one reduce over (values, indices) whose body
keeps the larger value and, on ties, the smaller index. Two one-operand reduces vectorize
better: m = reduce-max(values), then index = reduce-min(select(values == m, indices, INT_MAX))
(NaN: m is NaN and the first NaN's index wins, as jax and numpy say). The rows are read twice,
yet the pair is faster than IREE's variadic reduce. A long innermost row (a multiple of
LANES) is first seen as rows of LANES lanes, [..., n / 8, 8]: the pair reduces over the middle
dimension, keeping the lanes, then a second pair over the lanes, because IREE vectorizes a
reduce over a middle dimension better than one over the innermost (timings:
docs/iree_gaps.md#shlo-split-arg-reduce). The reducer is associative and commutative (what
`recognise` proves), so the
regrouping changes no result.

The body is recognised by what it computes, not how it is spelt: it is evaluated on every
order relation of two (value, index) pairs (less, equal, greater, NaN on either side or both;
indices less, equal, greater, negative) and must agree with one of max/min x first/last index
everywhere. A body made of compare/select/maximum/minimum that stay within the values or
within the indices, plus and/or/xor/not and boolean constants, only ever picks one of its
inputs by their order, so these probes decide it completely; a body with any other op, a
number constant, a value compared with an index, a TOTALORDER compare or a disagreement stays
as it is. Where both values are NaN the body's choice depends on the reduction order, which
the spec leaves to the implementation; the rewrite takes the first.
"""
from __future__ import annotations

import dataclasses
import itertools
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.elementwise import compare_kind, compare_scalars
from ..lib.expr import element_of, is_float
from ..op_rules import RulesPass

FLOAT_PROBES = (-math.inf, -1.0, 0.0, 2.5, math.inf, math.nan)
SIGNED_PROBES = (-3, 0, 5)
UNSIGNED_PROBES = (0, 1, 7)
# An innermost row of at least MIN_LANED_ROW elements (a multiple of LANES) is reduced as
# rows of LANES lanes first: IREE vectorizes a reduce over a middle dimension much better.
LANES = 8
MIN_LANED_ROW = 64


class _NotRecognised(Exception):
    pass


# ---- what the body computes ------------------------------------------------------------------

def _extreme(pick_max: bool, a, b):
    if isinstance(a, float) and (math.isnan(a) or math.isnan(b)):
        return math.nan
    return max(a, b) if pick_max else min(a, b)


def _bool_constant(op: ir.Operation) -> bool:
    attr = ir.DenseElementsAttr(op.attributes["value"])
    if not attr.is_splat or str(element_of(op.result)) != "i1":
        raise _NotRecognised            # a number would break the order-only argument
    return bool(ir.IntegerAttr(attr.get_splat_value()).value)


def _lookup(env: dict, value: ir.Value) -> tuple:
    """(scalar, domain) of an operand; a constant from outside the body (the greedy driver
    hoists constants out of regions) is evaluated where it is."""
    if value in env:
        return env[value]
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == "stablehlo.constant":
        return _bool_constant(owner.operation), "b"
    raise _NotRecognised


def _evaluate(block: ir.Block, args: list) -> list:
    """The body's results for scalar Python `args` (value a, index a, value b, index b).

    Raises _NotRecognised for other ops and for anything but order relations within the
    values and within the indices: each value carries its domain (value, index, bool), and a
    compare, select or maximum/minimum must stay inside one of them."""
    env = {a: (v, d) for a, v, d in zip(block.arguments, args, ("v", "i", "v", "i"))}
    for op in block.operations:
        name = op.name
        operands = [_lookup(env, v) for v in op.operands]
        ins = [value for value, _ in operands]
        domains = [domain for _, domain in operands]
        if name == "stablehlo.return":
            if domains != ["v", "i"]:
                raise _NotRecognised
            return ins
        if name == "stablehlo.compare":
            if domains[0] != domains[1] or domains[0] == "b":
                raise _NotRecognised
            if compare_kind(op) == "TOTALORDER":
                raise _NotRecognised        # not an order relation of the values alone
            out, domain = compare_scalars(op, *ins), "b"
        elif name in ("stablehlo.and", "stablehlo.or", "stablehlo.xor", "stablehlo.not"):
            if any(d != "b" for d in domains):
                raise _NotRecognised
            out = {"stablehlo.and": lambda: ins[0] and ins[1],
                   "stablehlo.or": lambda: ins[0] or ins[1],
                   "stablehlo.xor": lambda: ins[0] != ins[1],
                   "stablehlo.not": lambda: not ins[0]}[name]()
            domain = "b"
        elif name == "stablehlo.select":
            if domains[0] != "b" or domains[1] != domains[2]:
                raise _NotRecognised
            out, domain = (ins[1] if ins[0] else ins[2]), domains[1]
        elif name in ("stablehlo.maximum", "stablehlo.minimum"):
            if domains[0] != domains[1] or domains[0] == "b":
                raise _NotRecognised
            out, domain = _extreme(name == "stablehlo.maximum", *ins), domains[0]
        elif name == "stablehlo.constant":
            out, domain = _bool_constant(op), "b"
        else:
            raise _NotRecognised
        env[op.result] = (out, domain)
    raise _NotRecognised


def _same(x, y) -> bool:
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x):
        return math.isnan(y)
    return x == y and type(x) is type(y)


def _agrees(got: list, a, ia, b, ib, pick_max: bool, first: bool) -> bool:
    """The body's (value, index) `got` is what arg-max/min (`pick_max`) with ties going to the
    `first` (smaller) or last index gives for the pairs (a, ia), (b, ib)."""
    a_nan = isinstance(a, float) and math.isnan(a)
    b_nan = isinstance(b, float) and math.isnan(b)
    if a_nan and b_nan:                 # order-dependent in the body; any NaN pair will do
        return _same(got[0], a) and got[1] in (ia, ib)
    if a_nan or b_nan:
        want = (a, ia) if a_nan else (b, ib)
    elif a == b:
        want = (a, min(ia, ib) if first else max(ia, ib))
    else:
        want = (a, ia) if (a > b) == pick_max else (b, ib)
    return _same(got[0], want[0]) and _same(got[1], want[1])


def _probes(element: ir.Type) -> tuple:
    if is_float(element):
        return FLOAT_PROBES
    return UNSIGNED_PROBES if ir.IntegerType(element).is_unsigned else SIGNED_PROBES


def recognise(reduce: ir.Operation) -> tuple[bool, bool] | None:
    """(pick_max, first) when `reduce` is an arg-max/min reduce the rewrite keeps exact."""
    if len(reduce.operands) != 4 or len(reduce.regions[0].blocks) != 1:
        return None
    if not list(ir.DenseI64ArrayAttr(reduce.attributes["dimensions"])):
        return None                        # a reduce over no dimensions (rank 0 too) is a no-op
    values, indices = reduce.operands[0], reduce.operands[1]
    types = [ir.RankedTensorType(v.type) for v in (values, indices)]
    if not all(t.has_static_shape for t in types):
        return None
    value_element, index_element = types[0].element_type, types[1].element_type
    if not (is_float(value_element) or _is_wide_integer(value_element)) \
            or not _is_wide_integer(index_element):
        return None
    value_probes, index_probes = _probes(value_element), _probes(index_element)
    block = reduce.regions[0].blocks[0]
    candidates = set(itertools.product((True, False), (True, False)))
    try:
        for a, b in itertools.product(value_probes, repeat=2):
            for ia, ib in itertools.product(index_probes, repeat=2):
                got = _evaluate(block, [a, ia, b, ib])
                candidates = {c for c in candidates if _agrees(got, a, ia, b, ib, *c)}
                if not candidates:
                    return None
    except _NotRecognised:
        return None
    return min(candidates)


def _is_wide_integer(element: ir.Type) -> bool:
    return isinstance(element, ir.IntegerType) and element.width > 1


# ---- the rewrite ------------------------------------------------------------------------------

def _extreme_of(element: ir.Type, largest: bool) -> int:
    t = ir.IntegerType(element)
    if t.is_unsigned:
        return (1 << t.width) - 1 if largest else 0
    return (1 << (t.width - 1)) - 1 if largest else -(1 << (t.width - 1))


def _matches(x: ir.Value, m: ir.Value) -> ir.Value:
    """x == m, NaN matching NaN, for an `x` that took part in the reduce giving `m` (so m is
    NaN wherever x is)."""
    hit = stablehlo.compare(x, m, comparison_direction="EQ")
    if is_float(element_of(x)):
        hit = stablehlo.or_(hit, stablehlo.compare(x, x, comparison_direction="NE"))
    return hit


def split(reduce: ir.Operation, pick_max: bool, first: bool) -> list[ir.Value]:
    values, indices, value_init, index_init = reduce.operands
    dims = list(ir.DenseI64ArrayAttr(reduce.attributes["dimensions"]))
    value_type = ir.RankedTensorType(values.type)
    rank, row = value_type.rank, value_type.shape[-1]
    if dims != [rank - 1] or row % LANES or row < MIN_LANED_ROW:
        return _split(values, indices, value_init, index_init, dims, pick_max, first)
    # rows of lanes: [..., row] -> [..., row / LANES, LANES], reduced over the rows, then
    # over the lanes (the reducer is associative and commutative: recognise checked it)
    laned = [stablehlo.reshape(v, result_type=ir.RankedTensorType.get(
        [*value_type.shape[:-1], row // LANES, LANES], element_of(v))) for v in (values, indices)]
    laned_values, laned_indices = laned
    m, index = _split(laned_values, laned_indices, value_init, index_init, [rank - 1],
                      pick_max, first)
    return _split(m, index, value_init, index_init, [rank - 1], pick_max, first)


def _split(values, indices, value_init, index_init, dims, pick_max: bool,
           first: bool) -> list[ir.Value]:
    """(the extreme value, its index) over `dims` as two one-operand reduces."""
    value_type = ir.RankedTensorType(values.type)
    index_type = ir.RankedTensorType(indices.type)
    kept = [d for d in range(value_type.rank) if d not in dims]
    extreme = stablehlo.maximum if pick_max else stablehlo.minimum
    tie = stablehlo.minimum if first else stablehlo.maximum
    m = stablehlo.reduce([values], [value_init], dimensions=dims, body=extreme)
    m_wide = stablehlo.broadcast_in_dim(m, broadcast_dimensions=kept, result_type=value_type)
    fill = stablehlo.constant(_extreme_of(index_type.element_type, first),
                              result_type=ir.RankedTensorType.get([], index_type.element_type))
    fill_wide = stablehlo.broadcast_in_dim(fill, broadcast_dimensions=[], result_type=index_type)
    candidates = stablehlo.select(_matches(values, m_wide), indices, fill_wide)
    index = stablehlo.reduce([candidates], [fill], dimensions=dims, body=tie)
    # the init pair takes part like any element
    out_type = ir.RankedTensorType(index.type)
    init_value = stablehlo.broadcast_in_dim(value_init, broadcast_dimensions=[],
                                            result_type=ir.RankedTensorType(m.type))
    init_index = stablehlo.broadcast_in_dim(index_init, broadcast_dimensions=[],
                                            result_type=out_type)
    index = stablehlo.select(_matches(init_value, m), tie(index, init_index), index)
    return [m, index]


def _rule(op: ir.Operation):
    found = recognise(op)
    return None if found is None else split(op, *found)


@dataclasses.dataclass
class SplitArgReduce(RulesPass):
    """Split arg-max/arg-min reduces (value, index) into a max/min reduce and an index reduce."""

    NAME = "shlo-split-arg-reduce"
    RULES = {"stablehlo.reduce": _rule}
