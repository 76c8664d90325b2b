"""A sort of which only the first k along its dimension are used, as IREE's top-k (cpu, Vulkan).

chlo.top_k (and sort-then-slice, jax.lax.approx_max_k off TPU) sorts whole rows to keep k of
them: the bitonic network does O(n log² n) work per row, far more than XLA's top-k
(docs/iree_gaps.md#shlo-lower-sort). `iree_linalg_ext.topk` keeps a running top-k per row
instead, O(n k)
comparisons; with a chunked first pass that drops most of a row, fewer still:

- every element becomes one i64, ordered like the sort (the comparator's order as a signed
  32-bit key, `sort_keys`, in the high half; its position in the low half, so no two are equal
  and ties keep their order, as a stable sort does), complemented so that the first in the
  sort's order is the largest;
- when it pays, rows are cut into chunks of s elements and each chunk's largest taken: an
  element among the row's first k is in a chunk whose largest is among the k largest chunk
  maxima (otherwise k chunk maxima, k distinct elements, would come before it), so the top k
  of those k chunks (k s candidates) is the top k of the row; the k largest maxima are found
  the same way when that pays too (`Plan`);
- a selection of the k largest of a few hundred values is made by rank (each value's count
  of larger ones in its row, one fused reduction, then each value scattered to its rank's place),
  vectorized work that costs less than IREE's topk, whose scalar loop takes 1 to 2 ns a
  comparison; longer ones, or for k < 8, are IREE's topk (`by_rank`);
- the positions in the low halves of the top k gather every operand (an iota along the
  dimension is the positions).

`plan` picks the chunk sizes by counting comparisons per row (a direct top-k of n: n k, or
its rank's cost; a level of chunks of s: n for the maxima, the maxima's plan, the selection
from k s candidates, and its dispatches); `top_k_plan` keeps the network where a time model
fitted to measurements says it is faster. The largest alone (k = 1) is a max reduction.
IREE's topk takes no comparator on other operands, so only a sort whose comparator orders its
first operand alone by a known order (`sort_keys.recognise`) or that is chlo.top_k's
(`shlo.top_k_order`), keys of at most 32 bits, qualifies; static shapes only.
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib import builders as extras
from . import sort_keys
from ..lib.expr import const, element_of, max_over, Num, sum_over, with_element
from ..expand.index_vectors import edge_pad, inverse, reshape, transpose

I64_MIN = -2 ** 63


@dataclasses.dataclass
class Leading:
    """The uses of a sort's results: each a slice of the first `k` along its dimension,
    directly or behind optimization barriers that hold nothing but the sort's results."""
    k: int
    slices: list[tuple[ir.Operation, int]]          # (slice, which sort result it takes)
    barriers: list[ir.Operation]


def leading(sort: ir.Operation) -> Leading | None:
    """The slices every use of `sort`'s results comes down to, or None."""
    t = ir.RankedTensorType(sort.operands[0].type)
    if not t.has_static_shape or t.rank == 0:
        return None
    dimension = ir.IntegerAttr(sort.attributes["dimension"]).value % t.rank
    ks, slices, barriers = set(), [], []

    def take(op: ir.Operation, result: int) -> bool:
        if op.name != "stablehlo.slice":
            return False
        starts = list(ir.DenseI64ArrayAttr(op.attributes["start_indices"]))
        limits = list(ir.DenseI64ArrayAttr(op.attributes["limit_indices"]))
        strides = list(ir.DenseI64ArrayAttr(op.attributes["strides"]))
        if any(starts) or any(s != 1 for s in strides) or any(
                limit != size for d, (limit, size) in enumerate(zip(limits, t.shape))
                if d != dimension):
            return False
        ks.add(limits[dimension])
        slices.append((op, result))
        return True

    position = {r: i for i, r in enumerate(sort.results)}
    for i, result in enumerate(sort.results):
        for use in result.uses:
            owner = use.owner
            if owner.name == "stablehlo.optimization_barrier":
                if owner in barriers:
                    continue
                if not all(v in position for v in owner.operands):
                    return None
                barriers.append(owner)
                for operand, fenced in zip(owner.operands, owner.results):
                    if not all(take(u.owner, position[operand]) for u in fenced.uses):
                        return None
            elif not take(owner, i):
                return None
    if len(ks) != 1 or not slices:
        return None
    k = ks.pop()
    if not 0 < k < t.shape[dimension]:
        return None
    return Leading(k, slices, barriers)


# the longest row IREE's topk takes fused with its producer: fused, the producer's row goes
# into a stack buffer (8 bytes an element, under IREE's cpu stack limit of 32 KiB a function;
# docs/iree_gaps.md#shlo-lower-sort)
FUSED_ROW_LIMIT = 2048


# a level of chunks adds a reduction, a gather and a top-k dispatch: a few us a call, the time
# of this many comparisons
LEVEL_OVERHEAD = 8_000
# and per row, this many comparisons' time per value kept (fitted: the constants of this
# cost model and their measurements are in docs/iree_gaps.md#shlo-lower-sort)
LEVEL_PER_KEPT = 20


@dataclasses.dataclass(frozen=True)
class Plan:
    """The k largest of n: directly (chunk None), or the k chunks of `chunk` elements whose
    largest are the k largest (found by the `maxima` plan), then the k largest of those."""
    cost: float                                     # comparisons per row
    chunk: int | None = None
    maxima: "Plan | None" = None
    ranked: bool = True                             # selections by rank where they pay


# the k largest of m by rank (`_ranked`): m (m + k) vectorized integer operations, each this
# fraction of a top-k comparison (fitted)
RANK_COST = 0.1
# the longest row selected by rank (its [rows, m, m] comparisons are fused into a reduction)
RANK_ROW_LIMIT = 1024
# the least k selected by rank (below it IREE's topk is faster)
RANK_MIN_K = 8


def by_rank(m: int, k: int) -> bool:
    """Whether the k largest of m are selected by rank rather than by IREE's topk."""
    return RANK_MIN_K <= k and m <= RANK_ROW_LIMIT and RANK_COST * m * (m + k) < m * k


def selection_cost(m: int, k: int, ranked: bool) -> float:
    """Comparisons per row (or their equivalent) to select the k largest of m (by rank where
    `ranked` and `by_rank`)."""
    return RANK_COST * m * (m + k) if ranked and by_rank(m, k) else m * k


@functools.cache
def plan(n: int, k: int, rows: int, ranked: bool = True) -> Plan:
    """The cheapest plan for the k largest of n in each of `rows` rows; selections by rank
    where `ranked` and it pays, else IREE's topk."""
    best = Plan(selection_cost(n, k, ranked), ranked=ranked)
    chunk = 2                                       # powers of two only (`_largest` shifts)
    while -(-n // chunk) > k:
        maxima = plan(-(-n // chunk), k, rows, ranked)
        cost = (n + maxima.cost + selection_cost(k * chunk, k, ranked) + LEVEL_OVERHEAD / rows
                + (LEVEL_PER_KEPT * k if ranked else 0))
        if cost < best.cost:
            best = Plan(cost, chunk, maxima, ranked)
        chunk *= 2
    return best


# the time model that picks between them: IREE's topk a time per comparison, the network of
# static steps a time per step plus one per element (keys and positions moving); fitted on
# the cpu target (docs/iree_gaps.md#shlo-lower-sort)
NETWORK_STEP_NS = 1_500
NETWORK_ELEMENT_NS = 0.25
COMPARISON_NS = 1.0


def top_k_plan(n: int, k: int, rows: int, ranked: bool = True) -> Plan | None:
    """The plan for a sort of n cut to its first k, or None where the network is faster."""
    width = 1 << (n - 1).bit_length()
    log = width.bit_length() - 1
    network = log * (log + 1) // 2 * (NETWORK_STEP_NS + rows * width * NETWORK_ELEMENT_NS)
    best = plan(n, k, rows, ranked)
    return best if rows * best.cost * COMPARISON_NS < network else None


def replace(sort: ir.Operation, uses: Leading, order: str, descending: bool,
            how: Plan) -> None:
    """Replace the slices in `uses` by the top-k form of `sort`, then erase what is left."""
    with sort.location, ir.InsertionPoint(sort):
        firsts = top_k(list(sort.operands), ir.IntegerAttr(sort.attributes["dimension"]).value,
                       uses.k, order, descending, how)
    for op, result in uses.slices:
        op.results[0].replace_all_uses_with(firsts[result])
        op.erase()
    for barrier in uses.barriers:
        barrier.erase()
    sort.erase()


def top_k(operands: list[ir.Value], dimension: int, k: int, order: str, descending: bool,
          how: Plan) -> list[ir.Value]:
    """The first k of each operand along `dimension` in the order of the first operand's keys
    (`order`, `descending` as `sort_keys.recognise` names them), ties by position."""
    t = ir.RankedTensorType(operands[0].type)
    dimension %= t.rank
    n = t.shape[dimension]
    permutation = [d for d in range(t.rank) if d != dimension] + [dimension]
    outer = [t.shape[d] for d in permutation[:-1]]
    rows = int(np.prod(outer, dtype=np.int64))
    i64 = ir.IntegerType.get_signless(64)
    i32 = ir.IntegerType.get_signless(32)
    key = reshape(transpose(sort_keys.key32(operands[0], order, descending), permutation),
                  [rows, n])
    key = stablehlo.convert(key, result_type=with_element(key.type, i64))
    position = stablehlo.iota(iota_dimension=1, result_type=with_element(key.type, i64))
    # first in the sort's order = largest; never I64_MIN, the top-k's initial value
    packed = stablehlo.not_(stablehlo.or_(stablehlo.shift_left(key, const(32, key)), position))
    best = _largest(packed, k, how)
    positions = stablehlo.convert(_positions(best), result_type=with_element(best.type, i32))
    positions = transpose(reshape(positions, outer + [k]), inverse(permutation))
    return [Num(positions).to(element_of(operand)).value
            if sort_keys.is_iota_along(operand, dimension)
            else sort_keys.take_along(operand, positions, dimension) for operand in operands]


def _positions(best: ir.Value) -> ir.Value:
    """The positions in the low halves of (complemented) packed values, as i64."""
    return stablehlo.and_(stablehlo.not_(best), const(2 ** 32 - 1, best))


def _largest(packed: ir.Value, k: int, how: Plan, stride: int = 1) -> ir.Value:
    """The k largest of each row of the [rows, n] i64 `packed`, largest first; an element's
    place in its row is its position (the low half) // `stride`."""
    if how.chunk is None:
        return _iree_top_k(packed, k, how.ranked)
    rows, n = ir.RankedTensorType(packed.type).shape
    chunk = how.chunk
    count = -(-n // chunk)
    i64 = ir.IntegerType.get_signless(64)
    chunks = reshape(edge_pad(packed, I64_MIN, [0, 0], [0, count * chunk - n]),
                     [rows, count, chunk])
    # the maxima are in position order too: chunk c's largest has position // (stride * chunk) c
    best = _largest(max_over(Num(chunks), [2], I64_MIN).value, k,
                    how.maxima, stride * chunk)  # type: ignore[arg-type]  # chunked: maxima set
    low = _positions(best)
    # chunks are powers of two: a shift (IREE's Vulkan i64 emulation has no unsigned divide)
    which = stablehlo.shift_right_logical(low, const((stride * chunk).bit_length() - 1, low))
    which = stablehlo.convert(which, result_type=with_element(
        best.type, ir.IntegerType.get_signless(32)))
    # the index vector (row, which) built by a select, which IREE fuses into the gather
    # (batching dimensions, or a concatenate, would cost it a few dispatches more)
    pair = ir.RankedTensorType.get([rows, k, 2], ir.IntegerType.get_signless(32))
    row = stablehlo.iota(iota_dimension=0, result_type=pair)
    which = stablehlo.broadcast_in_dim(which, broadcast_dimensions=[0, 1], result_type=pair)
    first = stablehlo.compare(stablehlo.iota(iota_dimension=2, result_type=pair),
                              const(0, row), comparison_direction="EQ")
    picked = stablehlo.gather(
        chunks, stablehlo.select(first, row, which), offset_dims=[2],
        collapsed_slice_dims=[0, 1], start_index_map=[0, 1], index_vector_dim=2,
        slice_sizes=[1, 1, chunk], result_type=ir.RankedTensorType.get([rows, k, chunk], i64))
    return _iree_top_k(reshape(picked, [rows, k * chunk]), k, how.ranked)


def _iree_top_k(values: ir.Value, k: int, ranked: bool) -> ir.Value:
    """The k largest of each row of the [rows, n] i64 `values`, largest first: their maximum
    for k = 1, else `iree_linalg_ext.topk`. A row longer than FUSED_ROW_LIMIT goes in behind
    a fusion barrier, which keeps its producer in a dispatch of its own (optimization
    barriers did, with a wait on the host before each topk: for 64 rows of 4096, k = 16,
    such waits took half the time)."""
    rows, n = ir.RankedTensorType(values.type).shape
    if k == 1:
        return reshape(max_over(Num(values), [1], I64_MIN).value, [rows, 1])
    if ranked and by_rank(n, k):
        return _ranked(values, k)
    i64 = ir.IntegerType.get_signless(64)
    i32 = ir.IntegerType.get_signless(32)
    out = ir.RankedTensorType.get([rows, k], i64)
    index_out = ir.RankedTensorType.get([rows, k], i32)
    if n > FUSED_ROW_LIMIT:
        values = extras.fusion_barrier(values)
    op = ir.Operation.create(
        "iree_linalg_ext.topk", results=[out, index_out],
        operands=[values, stablehlo.constant(I64_MIN, result_type=out),
                  stablehlo.constant(0, result_type=index_out)],
        attributes={"dimension": ir.IntegerAttr.get(i64, 1)}, regions=1)
    block = op.regions[0].blocks.append(i64, i64)
    with ir.InsertionPoint(block):
        greater = ir.Operation.create(
            "arith.cmpi", results=[ir.IntegerType.get_signless(1)], operands=list(block.arguments),
            attributes={"predicate": ir.IntegerAttr.get(i64, 4)})          # sgt
        ir.Operation.create("iree_linalg_ext.yield", results=[], operands=[greater.result])
    return op.results[0]


def _ranked(values: ir.Value, k: int) -> ir.Value:
    """The k largest of each row of the [rows, m] i64 `values`, largest first, by rank: each
    element's count of larger ones in its row, then each element scattered to place
    min(rank, k) of a row of k + 1 (place k, where the rest land, is dropped). The k largest
    must be distinct from every other element (packed values are; a padding I64_MIN repeated
    has a rank of k or more)."""
    rows, m = ir.RankedTensorType(values.type).shape
    i64 = ir.IntegerType.get_signless(64)
    i32 = ir.IntegerType.get_signless(32)
    pairs = ir.RankedTensorType.get([rows, m, m], i64)
    other = stablehlo.broadcast_in_dim(values, broadcast_dimensions=[0, 2], result_type=pairs)
    this = stablehlo.broadcast_in_dim(values, broadcast_dimensions=[0, 1], result_type=pairs)
    larger = stablehlo.compare(other, this, comparison_direction="GT")
    rank = sum_over(Num(stablehlo.convert(larger, result_type=with_element(pairs, i32))),
                    [2]).value
    # a scatter to unique places (the placement as a max over rank == j, a second reduction
    # of [rows, k, m], took 20 % longer for 32 rows of 4096, k = 40); its inputs behind
    # fusion barriers (300 rows of 16 fused into the scatter: over IREE's 32 KiB stack limit)
    place = stablehlo.add(stablehlo.minimum(rank, const(k, rank)), stablehlo.multiply(
        stablehlo.iota(iota_dimension=0, result_type=rank.type), const(k + 1, rank)))
    place, values = extras.fusion_barrier(place), extras.fusion_barrier(values)
    empty = stablehlo.broadcast_in_dim(
        stablehlo.constant(I64_MIN, result_type=ir.RankedTensorType.get([], i64)),
        broadcast_dimensions=[], result_type=ir.RankedTensorType.get([rows * (k + 1)], i64))
    placed = stablehlo.scatter([empty], reshape(place, [rows * m, 1]),
                               [reshape(values, [rows * m])], update_window_dims=[],
                               inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                               index_vector_dim=1,
                               update_computation=lambda a, b: stablehlo.maximum(a, b))
    placed = placed[0] if isinstance(placed, (list, tuple)) else placed
    return stablehlo.slice(reshape(placed, [rows, k + 1]), start_indices=[0, 0],
                           limit_indices=[rows, k], strides=[1, 1])
