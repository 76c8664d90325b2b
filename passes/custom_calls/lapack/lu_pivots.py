"""jax's permutation from getrf's pivots without its loop (shlo-expand-custom-calls, before the
LAPACK calls are expanded).

jax computes an LU's permutation on the CPU as a while loop of k trips, trip i swapping
entries i and pivots[i] of an iota (`lu_pivots_to_permutation`); IREE runs each trip as a
few dispatches and a host round trip (256 rows: about 22 ms a call against XLA's 0.7 ms for
the whole solve). getrf's pivots satisfy pivots[i] >= i (LAPACK picks row i's pivot among
rows i..m), so entry i is final after trip i and the loop has a closed form: with pivots
extended by the identity to the permutation's length m,

* the value at position j just before trip j is `root(j)`, where the chain
  j -> L(j) = the last j' < j with pivots[j'] = j ends (none: j itself);
* the result at j is root(q(j)) for q(j) = the last j' < j with pivots[j'] = pivots[j],
  else pivots[j].

L and q are masked maxima over [m, m]; the roots take ceil(log2 m) pointer-jumping gathers.
Only a loop that is exactly jax's (checked op by op) over pivots taken straight from a getrf
call is replaced; batched pivots keep the loop.
"""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ...lib.expr import const, max_over, Num
from ...sort.sort_keys import take_along


def rewrite(getrf: ir.Operation) -> None:
    """Replace each of jax's permutation loops over `getrf`'s pivots (its result 1, 1-based,
    minus 1) by the closed form. Only for LAPACK's own getrf, whose pivots are in range
    (shlo's StableHLO getrf gives m for a column of NaNs)."""
    if len(getrf.results) < 2:
        return
    for use in list(getrf.results[1].uses):
        minus_one = use.owner
        if minus_one.name != "stablehlo.subtract" or use.operand_number != 0 \
                or not _is_splat(minus_one.operands[1], 1):
            continue
        pivots = minus_one.results[0]
        for loop_use in list(pivots.uses):
            if loop_use.owner.name == "stablehlo.while":
                _replace(loop_use.owner, pivots)


def _replace(loop: ir.Operation, pivots: ir.Value) -> None:
    found = _match(loop, pivots)
    if found is None:
        return
    p_index, perm_index, m = found
    k = ir.RankedTensorType(pivots.type).shape[0]
    with loop.location, ir.InsertionPoint(loop):
        perm = permutation(pivots, m)
        done = []
        for i, (operand, result) in enumerate(zip(loop.operands, loop.results)):
            if i == p_index:
                done.append(pivots)
            elif i == perm_index:
                done.append(perm)
            else:                                   # the counters: k after k trips
                done.append(const(k, operand))
    for result, value in zip(loop.results, done):
        result.replace_all_uses_with(value)
    loop.erase()


def permutation(pivots: ir.Value, m: int) -> ir.Value:
    """The [m] i32 permutation that swapping entries i and pivots[i] of an iota, for i in
    order, makes, for [k] i32 `pivots` with pivots[i] in [i, m)."""
    k = ir.RankedTensorType(pivots.type).shape[0]
    i32 = ir.IntegerType.get_signless(32)
    line = ir.RankedTensorType.get([m], i32)
    ids = stablehlo.iota(iota_dimension=0, result_type=line)
    if m > k:
        rest = stablehlo.slice(ids, start_indices=[k], limit_indices=[m], strides=[1])
        pivots = stablehlo.concatenate([pivots, rest], dimension=0)
    square = ir.RankedTensorType.get([m, m], i32)
    j = Num(stablehlo.iota(iota_dimension=0, result_type=square))
    earlier = Num(stablehlo.iota(iota_dimension=1, result_type=square))
    p_j = Num(stablehlo.broadcast_in_dim(pivots, broadcast_dimensions=[0], result_type=square))
    p_earlier = Num(stablehlo.broadcast_in_dim(pivots, broadcast_dimensions=[1],
                                               result_type=square))
    before = earlier < j

    def last(where: Num) -> Num:
        """Per row j, the last column j' < j where `where` holds, else -1."""
        return max_over(Num(stablehlo.select((before & where).value, earlier.value,
                                             const(-1, earlier.value))), [1], -1)
    same_pivot = last(p_earlier.eq(p_j))
    written_by = last(p_earlier.eq(j))
    ptr = stablehlo.select((written_by >= 0).value, written_by.value, ids)
    for _ in range(max(1, math.ceil(math.log2(m)))):
        ptr = take_along(ptr, ptr, 0)
    at = stablehlo.select((same_pivot >= 0).value, same_pivot.value, const(0, ids))
    return stablehlo.select((same_pivot >= 0).value, take_along(ptr, at, 0), pivots)


def _is_splat(value: ir.Value, number: int) -> bool:
    """Whether `value` is a constant splat of `number` (maybe broadcast from a scalar)."""
    op = _producer(value)
    if op is not None and op.name == "stablehlo.broadcast_in_dim":
        op = _producer(op.operands[0])
    if op is None or op.name != "stablehlo.constant":
        return False
    attr = op.attributes["value"]
    if not isinstance(attr, ir.DenseIntElementsAttr) or not attr.is_splat:
        return False
    return ir.IntegerAttr(attr.get_splat_value()).value == number


def _producer(value: ir.Value) -> ir.Operation | None:
    return value.owner if isinstance(value, ir.OpResult) else None


def _made_by(value: ir.Value, name: str) -> bool:
    op = _producer(value)
    return op is not None and op.name == name


def _strip(value: ir.Value) -> ir.Value:
    """`value` through reshapes, same-type converts and broadcasts of scalars."""
    while True:
        op = _producer(value)
        if op is None or op.name not in ("stablehlo.reshape", "stablehlo.convert",
                                         "stablehlo.broadcast_in_dim"):
            return value
        source = op.operands[0]
        if op.name == "stablehlo.convert" and source.type != value.type:
            return value
        if op.name == "stablehlo.broadcast_in_dim" and ir.RankedTensorType(source.type).rank:
            return value
        value = source


def _index(value: ir.Value) -> ir.Value:
    """The index x behind jax's wrap of a negative index, select(x < 0, x + size, x) (equal
    to x for x >= 0), or `value` stripped."""
    value = _strip(value)
    op = _producer(value)
    if op is not None and op.name == "stablehlo.select":
        pred, x = _producer(op.operands[0]), _strip(op.operands[2])
        if (pred is not None and pred.name == "stablehlo.compare"
                and "LT" in str(pred.attributes["comparison_direction"])
                and _strip(pred.operands[0]) == x and _is_splat(pred.operands[1], 0)):
            return x
    return value


def _element(value: ir.Value, of: ir.Value) -> ir.Value | None:
    """i when `value` is `of`[i] (a dynamic_slice of one element, reshaped), else None."""
    op = _producer(_strip(value))
    if op is None or op.name != "stablehlo.dynamic_slice" or op.operands[0] != of \
            or len(op.operands) != 2 or ir.RankedTensorType(op.results[0].type).shape != [1]:
        return None
    return _index(op.operands[1])


def _scatter_one(value: ir.Value, into: ir.Value) -> tuple[ir.Value, ir.Value] | None:
    """(index, update) when `value` is `into` with one element overwritten, else None."""
    op = _producer(value)
    if op is None or op.name != "stablehlo.scatter" or len(op.operands) != 3 \
            or op.operands[0] != into:
        return None
    numbers = str(op.attributes["scatter_dimension_numbers"])
    if "update_window_dims" in numbers or "batching" in numbers \
            or "inserted_window_dims = [0]" not in numbers \
            or "scatter_dims_to_operand_dims = [0]" not in numbers:
        return None
    body = op.regions[0].blocks[0]
    ops = list(body.operations)
    if len(ops) != 1 or ops[0].name != "stablehlo.return" \
            or ops[0].operands[0] != body.arguments[1]:
        return None
    if ir.RankedTensorType(op.operands[1].type).shape != [1]:
        return None
    return _index(op.operands[1]), op.operands[2]


def _match(loop: ir.Operation, pivots: ir.Value) -> tuple[int, int, int] | None:
    """(pivots' place, the permutation's place, its length m) when `loop` is jax's
    permutation loop over `pivots`, else None."""
    t = ir.RankedTensorType(pivots.type)
    i32 = ir.IntegerType.get_signless(32)
    if t.rank != 1 or t.element_type != i32 or t.shape[0] == 0 or len(loop.operands) != 4:
        return None
    k = t.shape[0]
    operands = list(loop.operands)
    places = [i for i, v in enumerate(operands) if v == pivots]
    iotas = [i for i, v in enumerate(operands) if _made_by(v, "stablehlo.iota")
             and ir.RankedTensorType(v.type).rank == 1 and _element_is(v, i32)]
    counters = [i for i, v in enumerate(operands) if ir.RankedTensorType(v.type).rank == 0
                and _element_is(v, i32) and _is_splat(v, 0)]
    if len(places) != 1 or len(iotas) != 1 or len(counters) != 2:
        return None
    p_index, perm_index = places[0], iotas[0]
    m = ir.RankedTensorType(operands[perm_index].type).shape[0]
    if m < k:
        return None
    cond, body = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    # the condition: one counter < k
    ret = list(cond.operations)[-1]
    test = _producer(ret.operands[0])
    if test is None or test.name != "stablehlo.compare" \
            or "LT" not in str(test.attributes["comparison_direction"]) \
            or test.operands[0] not in [cond.arguments[i] for i in counters] \
            or not _is_splat(test.operands[1], k):
        return None
    # the body: pivots unchanged, both counters + 1, the permutation with i and pivots[i]
    # swapped for one counter i
    args = body.arguments
    out = list(list(body.operations)[-1].operands)
    if out[p_index] != args[p_index]:
        return None
    for i in counters:
        step = _producer(out[i])
        if step is None or step.name != "stablehlo.add" or step.operands[0] != args[i] \
                or not _is_splat(step.operands[1], 1):
            return None
    perm = args[perm_index]
    second = _scatter_one(out[perm_index], _first_scatter(out[perm_index]))
    first = _scatter_one(_first_scatter(out[perm_index]), perm)
    if first is None or second is None:
        return None
    (i_at, i_value), (p_at, p_value) = first, second
    if i_at not in [args[c] for c in counters]:
        return None
    if _element(i_value, perm) != p_at or _element(p_value, perm) != i_at:
        return None
    if _element(p_at, args[p_index]) != i_at:
        return None
    return p_index, perm_index, m


def _first_scatter(value: ir.Value) -> ir.Value:
    """The operand a scatter `value` updates (or `value` when it is none)."""
    op = _producer(value)
    return op.operands[0] if op is not None and op.name == "stablehlo.scatter" else value


def _element_is(value: ir.Value, element: ir.Type) -> bool:
    return ir.RankedTensorType(value.type).element_type == element
