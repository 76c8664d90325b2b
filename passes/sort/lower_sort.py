"""shlo-lower-sort: rewrite `stablehlo.sort` into a bitonic sorting network of StableHLO ops.

IREE sorts on CPU with one thread and quadratic time (docs/iree_gaps.md#shlo-lower-sort). A bitonic
network sorts 2^k elements in k(k+1)/2 compare-exchange steps, O(n log² n) work in
O(log² n) passes over memory, each step one elementwise dispatch. A long sort (`static-from`
elements or more) has its steps written out in line: each pairs elements a static distance
apart, so it is static slices of a reshaped view, which IREE vectorizes; the lowest bits of
a position are kept at the top of the storage index (steps on them would have rows of 1 to 4
elements) and the results move back to position order once, at the end; each stage's
direction is an opaque run-time scalar, so that the steps of one distance are one executable.
A short sort runs its steps in a stablehlo.while, `unroll` per iteration, each gathering
every element's partner: one executable for all, which compiles fast.

Semantics are the op's own: the comparator region runs on whole tensors (each of its ops is
elementwise, so it computes the same function of each element pair), the sort runs along
`dimension` (other dimensions are sorted independently, side by side), and every operand moves
with the keys. A sort whose length is not a power of two is padded; padding is told apart by an
i32 index operand (index >= length), which also breaks ties by position when `is_stable` is
set (a before b iff less(a, b), or neither is less and a came first), so a stable sort gives
exactly the order of a stable sequential sort. A stable sort of one integer operand ordered by
value is sorted as an unstable one: keys that tie are the same value (and its padding is the
order's last value, so it needs no index operand).

A sort along a dimension of size 1 (or of no elements) is its operands.
Unstable sorts shorter than `min-size` stay as they are (IREE is fast there); stable ones of
any length take the network, because IREE's own sort is not stable. Sorts the network cannot
express stay too: dynamic
shapes, or a comparator with a non-elementwise op. When the comparator orders the first
operand alone by a known order (`sort_keys`), a sort becomes one sort of packed (key,
position) integers and gathers by the positions: before the network (one integer compare a
step, no ties, one carried array; not for a plain float compare, which orders no NaN), and
for a run-time sized sort of several operands (IREE cannot compile it) or a stable one,
which stays IREE's. One integer operand ordered by value keeps its keys (narrower).
With `top-k` (the cpu target), a sort of which only the first k are used becomes IREE's
top-k where a cost model says it is cheaper than the network (`sort_top_k`).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..lib import builders as extras
from ..chlo import structure as chlo_structure
from . import sort_keys, sort_top_k
from ..base import Pass, nested_ops
from ..lib.expr import Num, attributes, bit_width, is_float
from ..lib.elementwise import ELEMENTWISE_OPS

I32_MAX = 2**31 - 1
SPREAD_BITS = 3      # the lowest bits of a position, kept at the top of the storage index
LANES = 64           # the innermost dimension of a step's view (tuned, like the defaults
                     # below: docs/iree_gaps.md#shlo-lower-sort)


@dataclasses.dataclass
class LowerSort(Pass):
    """Lower stablehlo.sort to a bitonic network of elementwise StableHLO ops."""

    NAME = "shlo-lower-sort"
    min_size: int = 512          # shorter sorts stay IREE's (faster there)
    top_k: bool = False          # sorts cut to their first k: IREE's top-k where cheaper (cpu)
    top_k_rank: bool = True      # and their selections by rank where cheaper (slower on lavapipe)
    static_from: int = 1 << 14   # elements from which the steps are in line
    unroll: int = 8              # steps per loop iteration below that
    native_max_length: int = 0   # IREE's own sort is right up to this length (0: any; 256
                                 # on vulkan): longer sorts take the network or are an error

    def run(self, op: ir.Operation) -> None:
        for sort in nested_ops(op, "stablehlo.sort"):
            if sort.name != "stablehlo.sort":
                continue
            shape = ir.RankedTensorType(sort.operands[0].type).shape
            dimension = ir.IntegerAttr(sort.attributes["dimension"]).value
            if 0 in shape or shape[dimension] == 1:
                # no elements, or one per sorted row (IREE failed to compile such a sort
                # whose result a padded reduce_window read; seed 44 program 242): as it is
                _replace(sort, list(sort.operands))
                continue
            if self.top_k and _as_top_k(sort, self.top_k_rank):
                continue
            min_size = 2 if _is_stable(sort) else self.min_size
            if self.native_max_length:
                min_size = min(min_size, self.native_max_length + 1)
            why = why_not_lowered(sort, min_size)
            if why is not None and self.native_max_length and not _at_most(
                    sort, self.native_max_length):
                _check_native_length(sort, why, self.native_max_length)
            if why is None:
                order = None if _tie_order(sort) else sort_keys.recognise(sort)
                if order is not None and order[0] != "numbers":
                    # the network sorts packed (key, position) integers, which compare in
                    # one op and never tie, and the operands are gathered once at the end;
                    # not for a plain float compare, which orders no NaN: its network keeps
                    # each NaN where ties by position leave it, like the reference
                    # interpreter, where packed keys would put them last
                    sort = _pack_keys(sort, order)
                lower(sort, self.unroll, self.static_from)
            elif _needs_packed_keys(sort):
                order = sort_keys.recognise(sort)
                if order is not None:
                    _pack_keys(sort, order)


def _as_top_k(sort: ir.Operation, ranked: bool) -> bool:
    """Replace a sort of which only the first k are used by IREE's top-k (selections by rank
    where `ranked` and cheaper) where the cost model says it is cheaper than the network
    (`sort_top_k`); whether it did."""
    uses = sort_top_k.leading(sort)
    if uses is None or why_not_lowered(sort, 2) is not None:
        return False
    order = sort_keys.recognise(sort) or _top_k_order(sort)
    t = ir.RankedTensorType(sort.operands[0].type)
    dimension = ir.IntegerAttr(sort.attributes["dimension"]).value % t.rank
    n = t.shape[dimension]
    rows = int(np.prod(t.shape, dtype=np.int64)) // n
    how = sort_top_k.top_k_plan(n, uses.k, rows, ranked) if rows else None
    if order is None or how is None:
        return False
    sort_top_k.replace(sort, uses, *order, how)
    return True


def _top_k_order(sort: ir.Operation) -> tuple[str, bool] | None:
    """chlo.top_k's order (its sort carries `TOP_K_ORDER`), for keys of at most 32 bits."""
    element = ir.RankedTensorType(sort.operands[0].type).element_type
    if chlo_structure.TOP_K_ORDER not in sort.attributes or bit_width(element) > 32:
        return None
    return ("totalorder" if is_float(element) else "value"), True


def _needs_packed_keys(sort: ir.Operation) -> bool:
    """A run-time sized sort IREE cannot compile (several operands) or would not keep stable."""
    dynamic = not all(ir.RankedTensorType(v.type).has_static_shape for v in sort.operands)
    return dynamic and (len(sort.operands) > 1 or _is_stable(sort))


def _is_stable(sort: ir.Operation) -> bool:
    return "is_stable" in sort.attributes and ir.BoolAttr(sort.attributes["is_stable"]).value


def _pack_keys(sort: ir.Operation, order: tuple[str, bool]) -> ir.Operation:
    """Replace `sort` by a sort of packed (key, position) integers and gathers of its operands
    by the positions (`sort_keys.packed_sort`); the sort of packed keys."""
    with sort.location, ir.InsertionPoint(sort):
        results, sort_of_keys = sort_keys.packed_sort(sort, *order)
    _replace(sort, results)
    return sort_of_keys


def _tie_order(sort: ir.Operation) -> tuple[str, bool] | None:
    """The order of a sort whose keys the comparator does not order are equal, so that
    stability changes nothing: one integer operand (8 bits or more) ordered by value."""
    element = ir.RankedTensorType(sort.operands[0].type).element_type.maybe_downcast()
    if (len(sort.operands) != 1 or not isinstance(element, ir.IntegerType)
            or element.width < 8):
        return None
    return sort_keys.recognise(sort, any_width=True)


def _dimension(sort: ir.Operation) -> int:
    """The sorted dimension, non-negative."""
    rank = ir.RankedTensorType(sort.operands[0].type).rank
    return ir.IntegerAttr(sort.attributes["dimension"]).value % max(rank, 1)


def _length(sort: ir.Operation) -> int | None:
    """The length of the sorted dimension, None when run-time sized."""
    t = ir.RankedTensorType(sort.operands[0].type)
    if not t.rank:
        return 1
    n = t.shape[_dimension(sort)]
    return None if ir.ShapedType.is_dynamic_size(n) else n


def _check_native_length(sort: ir.Operation, why: str, limit: int) -> None:
    """For a sort the network cannot take, longer than `limit` (where IREE's own sort is
    wrong): a PassError, or for run-time sized rows a run-time check before it."""
    from ..shapes.shape_checks import assert_true, describe, dimension_size
    n = _length(sort)
    message = (f"a sort of rows of {'more than ' + str(limit) if n is None else n} elements "
               f"cannot take shlo-lower-sort's network ({why}), and IREE's own sort is right "
               f"only up to {limit} elements a row on this target (its loops are cut short)")
    if n is not None:
        raise PassError(f"shlo-lower-sort: {message}", at=sort)
    with sort.location, ir.InsertionPoint(sort):
        length = dimension_size(sort.operands[0], _dimension(sort))
        bound = stablehlo.constant(np.array(limit, np.int64))
        assert_true(stablehlo.compare(length, bound, comparison_direction="LE"),
                    f"{describe(sort)}: {message}", sort)


def _at_most(sort: ir.Operation, length: int) -> bool:
    n = _length(sort)
    return n is not None and n <= length


def why_not_lowered(sort: ir.Operation, min_size: int) -> str | None:
    """None when `sort` becomes a network, else the reason it stays as it is."""
    types = [ir.RankedTensorType(v.type) for v in sort.operands]
    if not all(t.has_static_shape for t in types):
        return "dynamic shape"
    dimension = ir.IntegerAttr(sort.attributes["dimension"]).value % max(types[0].rank, 1)
    length = types[0].shape[dimension] if types[0].rank else 1
    if length < max(min_size, 2):
        return f"length {length} below min-size {min_size}"
    if length > I32_MAX // 2:
        return "too long for i32 positions"
    body = sort.regions[0].blocks[0]
    for op in body.operations:
        if op.name not in ELEMENTWISE_OPS | {"stablehlo.constant", "stablehlo.return"}:
            return f"comparator uses {op.name}"
        if op.name == "stablehlo.constant" and not ir.DenseElementsAttr(
                op.attributes["value"]).is_splat:
            return "comparator constant is not a scalar"
    return None


def lower(sort: ir.Operation, unroll: int, static_from: int) -> None:
    """Replace `sort` by the network (in place): in line when it has `static_from` elements
    or more (padded), else a loop of `unroll` steps per iteration."""
    network = _Network(sort)
    with sort.location, ir.InsertionPoint(sort):
        if network.rows * network.width >= static_from:
            results = network.build_static()
        else:
            results = network.build_loop(max(unroll, 1))
    _replace(sort, results)


def _replace(sort: ir.Operation, results: list[ir.Value]) -> None:
    for old, new in zip(sort.results, results):
        old.replace_all_uses_with(new)
    sort.erase()


class _Network:
    """The values being sorted as [rows, width] tensors, width a power of two."""

    def __init__(self, sort: ir.Operation):
        self.sort = sort
        self.comparator = sort.regions[0].blocks[0]
        self.types = [ir.RankedTensorType(v.type) for v in sort.operands]
        shape = list(self.types[0].shape)
        rank = len(shape)
        self.dimension = ir.IntegerAttr(sort.attributes["dimension"]).value % max(rank, 1)
        # keys that tie are equal: no stability to keep, and padding is the order's last value
        self.tie_order = _tie_order(sort)
        self.stable = _is_stable(sort) and self.tie_order is None
        self.length = shape[self.dimension] if rank else 1
        self.width = 1 << (self.length - 1).bit_length()
        self.rows = int(np.prod([d for i, d in enumerate(shape) if i != self.dimension],
                                dtype=np.int64))
        self.permutation = [i for i in range(rank) if i != self.dimension] + [self.dimension]
        # operands that are an integer iota along the dimension (jnp.argsort's, top_k's) are
        # the positions: they are not carried through the steps
        self.iotas = {i for i, v in enumerate(sort.operands)
                      if sort_keys.is_iota_along(v, self.dimension)}
        # positions: to tell padding apart, to break ties for a stable sort, to stand for iotas
        self.with_positions = (self.stable or bool(self.iotas)
                               or (self.width != self.length and self.tie_order is None))

    # ---- layout: operands <-> one flat [rows * width] vector --------------------------------

    def _carried(self, opaque_zero: ir.Value | None = None) -> list[ir.Value]:
        """The operands the steps move, flat (iotas left out), then the positions if needed;
        padded with values made from `opaque_zero` where given (`_flatten`)."""
        values = [self._flatten(v, opaque_zero) for i, v in enumerate(self.sort.operands)
                  if i not in self.iotas]
        if self.with_positions:
            i32 = ir.IntegerType.get_signless(32)
            positions = stablehlo.iota(iota_dimension=1, result_type=ir.RankedTensorType.get(
                [self.rows, self.width], i32))
            values.append(stablehlo.reshape(positions, result_type=ir.RankedTensorType.get(
                [self.rows * self.width], i32)))
        return values

    def build_loop(self, unroll: int) -> list[ir.Value]:
        """The network as a stablehlo.while, `unroll` steps per iteration, each step's partner
        gathered (a short sort: one executable for every step)."""
        values = self._carried()
        flat = ir.RankedTensorType.get([self.rows * self.width], ir.IntegerType.get_signless(32))
        schedule = [(block, half) for block in _powers(2, self.width)
                    for half in reversed(_powers(1, block // 2))]
        # Each loop iteration runs `unroll` steps, spread evenly: IREE submits one command
        # buffer per iteration, which costs more than a step of a short sort. Steps of half 0
        # pad the schedule (an element meets itself: nothing moves).
        iterations = -(-len(schedule) // unroll)
        unroll = -(-len(schedule) // iterations)
        schedule += [(1, 0)] * (iterations * unroll - len(schedule))
        blocks = _i32_constant([b for b, _ in schedule])
        halves = _i32_constant([h for _, h in schedule])
        zero = _i32_constant(0)

        def cond(step, *_):
            return stablehlo.compare(step, _i32_constant(len(schedule)),
                                     comparison_direction="LT")

        def body(step, *carried_in):
            carried = list(carried_in)
            # made in the body, the iotas fuse into each step's dispatch (outside, IREE
            # materialised them and each step read them from memory)
            index = stablehlo.iota(iota_dimension=0, result_type=flat)
            column = stablehlo.and_(index, _splat(flat, self.width - 1))
            for offset in range(unroll):
                at = stablehlo.add(step, _i32_constant(offset)) if offset else step
                carried = self._gather_step(carried, index, column, _scalar_at(blocks, at),
                                            _scalar_at(halves, at))
            return [stablehlo.add(step, _i32_constant(unroll)), *carried]

        results = self._operands(extras.while_([zero, *values], cond, body)[1:])
        return [self._unflatten(v, t) for v, t in zip(results, self.types)]

    def build_static(self) -> list[ir.Value]:
        """The network in line, each step on static slices (a long sort)."""
        bits = self.width.bit_length() - 1
        layout = _Layout(bits)
        # blocks of 2**stage sort ascending where the element's bit `stage` is 0 (the last
        # stage: all of them); the bits are opaque run-time scalars, so that every step of one
        # half compiles to the same dispatch whatever its stage
        zero, *blocks = _opaque_scalars(self.sort, [0] + [
            1 << layout.storage_bit(stage) if stage < bits else 0
            for stage in range(1, bits + 1)])
        values = self._carried(zero)
        for stage, block in enumerate(blocks, start=1):
            for bit in reversed(range(stage)):
                values = self._static_step(values, 1 << layout.storage_bit(bit), block, zero)
        values = [layout.restore(v, self.rows) for v in values]
        results = self._operands(values)
        return [self._unflatten(v, t) for v, t in zip(results, self.types)]

    def _operands(self, carried: list[ir.Value]) -> list[ir.Value]:
        """The sort's operands, flat, from the carried values (the iotas from the positions,
        which come last)."""
        rest, positions = iter(carried), Num(carried[-1])
        return [positions.to(t.element_type).value if i in self.iotas else next(rest)
                for i, t in enumerate(self.types)]

    def _flatten(self, value: ir.Value, opaque_zero: ir.Value | None = None) -> ir.Value:
        """[rows * width] of an operand, padded to the width. With `opaque_zero` the padding
        value is made from it (`_opaque_padding`), not a constant: two long sorts in one
        function padded with one constant made equal splats, which IREE 3.13's cse merged
        across its execution regions ("'stream.yield' op used resource not listed in
        explicit captures")."""
        t = ir.RankedTensorType(value.type)
        if self.permutation != list(range(t.rank)):
            value = stablehlo.transpose(value, permutation=self.permutation)
        value = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
            [self.rows, self.length], t.element_type))
        if self.width != self.length:
            zero = stablehlo.constant(_zero(t.element_type) if self.tie_order is None
                                      else _last(t.element_type, descending=self.tie_order[1]))
            if opaque_zero is not None:
                zero = _opaque_padding(zero, opaque_zero)
            value = stablehlo.pad(value, zero, edge_padding_low=[0, 0],
                                  edge_padding_high=[0, self.width - self.length],
                                  interior_padding=[0, 0])
        return stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
            [self.rows * self.width], t.element_type))

    def _unflatten(self, value: ir.Value, t: ir.RankedTensorType) -> ir.Value:
        value = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
            [self.rows, self.width], t.element_type))
        if self.width != self.length:
            value = stablehlo.slice(value, start_indices=[0, 0],
                                    limit_indices=[self.rows, self.length], strides=[1, 1])
        shape = list(t.shape)
        transposed = [shape[i] for i in self.permutation]
        value = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
            transposed, t.element_type))
        if self.permutation != list(range(t.rank)):
            inverse = [self.permutation.index(i) for i in range(t.rank)]
            value = stablehlo.transpose(value, permutation=inverse)
        return value

    # ---- one compare-exchange step -----------------------------------------------------------

    def _static_step(self, values: list[ir.Value], half: int, block: ir.Value,
                     zero: ir.Value) -> list[ir.Value]:
        """Every element meets the one `half` places away in its block of 2 * half, seen as
        [pairs, 2, half / lanes, lanes]: the lower one takes the pair's first where its
        block sorts ascending (its storage index & `block` is 0), else the pair's last.
        Static slices only: IREE reads both sides with vector loads (a gather of the partner
        took 4x as long), and splitting the half into rows of LANES keeps each of its tiles
        to a few long runs of memory. Every op is on the whole view (each pair's order is
        computed for both of its elements), so that IREE makes one dispatch of the step.
        `zero` is an opaque 0, which tells the pair's sides apart without a constant mask."""
        size = self.rows * self.width
        lanes = min(LANES, half)
        view = [size // (2 * half), 2, half // lanes, lanes]
        viewed = [stablehlo.reshape(v, result_type=ir.RankedTensorType.get(
            view, ir.RankedTensorType(v.type).element_type)) for v in values]
        lower = [_side(v, 0) for v in viewed]
        upper = [_side(v, 1) for v in viewed]
        i32 = ir.IntegerType.get_signless(32)
        view_type = ir.RankedTensorType.get(view, i32)
        # the storage index is pair * 2 * half + side * half + chunk * lanes + lane, in
        # disjoint bit ranges: bit `block` is tested on each part but the side's, against
        # the opaque scalar shifted to the part (shifts of the index would be constants, and
        # IREE would keep them in memory)
        mask = _broadcast(block, view_type)
        bit = None
        for dimension, stride in ((0, 2 * half), (2, lanes), (3, 1)):
            shifted = stablehlo.shift_right_logical(mask, _splat(view_type,
                                                                 stride.bit_length() - 1))
            along = stablehlo.and_(stablehlo.iota(iota_dimension=dimension,
                                                  result_type=view_type), shifted)
            bit = along if bit is None else stablehlo.or_(bit, along)
        ascending = stablehlo.compare(bit, _splat(view_type, 0), comparison_direction="EQ")
        lower_first, upper_first = self._less_both(lower, upper)
        swap = stablehlo.select(ascending, upper_first, lower_first)
        first_side = stablehlo.compare(stablehlo.iota(iota_dimension=1, result_type=view_type),
                                       _broadcast(zero, view_type),
                                       comparison_direction="EQ")
        take_upper = stablehlo.compare(swap, first_side, comparison_direction="EQ")
        return [stablehlo.reshape(stablehlo.select(take_upper, high, low),
                                  result_type=ir.RankedTensorType.get(
                                      [size], ir.RankedTensorType(low.type).element_type))
                for low, high in zip(lower, upper)]

    def _gather_step(self, values: list[ir.Value], index: ir.Value, column: ir.Value,
                     block: ir.Value, half: ir.Value) -> list[ir.Value]:
        """Element i (flat `index`, `column` in its row) meets its partner i ^ half (rows are
        powers of two long, so flat positions work); blocks of `block` elements sort ascending
        when column & block == 0, else descending. The element wanting the first place of
        the pair takes its partner iff the partner goes first; the other takes it iff its own
        value goes first: both decide on the same comparison, so they swap together."""
        shape = ir.RankedTensorType(index.type)
        half_v = stablehlo.broadcast_in_dim(half, broadcast_dimensions=[], result_type=shape)
        block_v = stablehlo.broadcast_in_dim(block, broadcast_dimensions=[], result_type=shape)
        zeros = stablehlo.constant(ir.DenseElementsAttr.get_splat(
            shape, ir.IntegerAttr.get(shape.element_type, 0)))
        partner_index = stablehlo.xor(index, half_v)
        lower = stablehlo.compare(stablehlo.and_(index, half_v), zeros, comparison_direction="EQ")
        ascending = stablehlo.compare(stablehlo.and_(column, block_v), zeros,
                                      comparison_direction="EQ")
        wants_first = stablehlo.compare(lower, ascending, comparison_direction="EQ")
        partners = [_gather(v, partner_index) for v in values]
        partner_first, own_first = self._less_both(partners, values)
        take = stablehlo.select(wants_first, partner_first, own_first)
        return [stablehlo.select(take, p, v) for v, p in zip(values, partners)]

    # ---- the order --------------------------------------------------------------------------

    def _less_both(self, a: list[ir.Value], b: list[ir.Value]) -> tuple[ir.Value, ir.Value]:
        """(a goes before b, b goes before a): the comparator both ways, then padding last and,
        when stable, ties by position."""
        a_first = self._comparator(self._operands(a), self._operands(b))
        b_first = self._comparator(self._operands(b), self._operands(a))
        if not self.with_positions:
            return a_first, b_first
        pa, pb = a[-1], b[-1]
        if self.stable:
            a_earlier = stablehlo.compare(pa, pb, comparison_direction="LT")
            a_first, b_first = (
                stablehlo.or_(a_first, stablehlo.and_(stablehlo.not_(b_first), a_earlier)),
                stablehlo.or_(b_first, stablehlo.and_(stablehlo.not_(a_first),
                                                      stablehlo.not_(a_earlier))))
        if self.width == self.length:
            return a_first, b_first
        limit = stablehlo.constant(ir.DenseElementsAttr.get_splat(
            ir.RankedTensorType(pa.type), ir.IntegerAttr.get(ir.IntegerType.get_signless(32),
                                                              self.length)))
        a_real = stablehlo.compare(pa, limit, comparison_direction="LT")
        b_real = stablehlo.compare(pb, limit, comparison_direction="LT")
        # a real element goes before padding; padding never goes first
        return (stablehlo.and_(a_real, stablehlo.or_(stablehlo.not_(b_real), a_first)),
                stablehlo.and_(b_real, stablehlo.or_(stablehlo.not_(a_real), b_first)))

    def _comparator(self, a: list[ir.Value], b: list[ir.Value]) -> ir.Value:
        """The comparator region's ops, cloned onto whole tensors."""
        shape = ir.RankedTensorType(a[0].type).shape
        env = {}                         # comparator value -> tensor value
        for i, (x, y) in enumerate(zip(a, b)):
            env[self.comparator.arguments[2 * i]] = x
            env[self.comparator.arguments[2 * i + 1]] = y
        for op in self.comparator.operations:
            if op.name == "stablehlo.return":
                return _lookup(env, op.operands[0], shape)
            results = [_widened(r.type, shape) for r in op.results]
            if op.name == "stablehlo.constant":
                scalar = ir.DenseElementsAttr(op.attributes["value"])
                value = ir.DenseElementsAttr.get_splat(results[0], scalar.get_splat_value())
                new = ir.Operation.create("stablehlo.constant", results=results,
                                          attributes={"value": value})
            else:
                new = ir.Operation.create(
                    op.name, results=results,
                    operands=[_lookup(env, v, shape) for v in op.operands],
                    attributes=attributes(op))
            for old, value in zip(op.results, new.results):
                env[old] = value
        raise AssertionError("comparator without stablehlo.return")


def _powers(low: int, high: int) -> list[int]:
    """low, 2*low, 4*low, ... up to high (powers of two)."""
    out = []
    while low <= high:
        out.append(low)
        low *= 2
    return out


def _i32_constant(values) -> ir.Value:
    i32 = ir.IntegerType.get_signless(32)
    array = np.asarray(values, np.int32)
    return stablehlo.constant(ir.DenseElementsAttr.get(
        array, type=ir.RankedTensorType.get(list(array.shape), i32)))


def _scalar_at(table: ir.Value, step: ir.Value) -> ir.Value:
    """table[step] as a 0-d tensor."""
    one = extras.dynamic_slice(table, [step], [1])
    return stablehlo.reshape(one, result_type=ir.RankedTensorType.get(
        [], ir.RankedTensorType(table.type).element_type))


def _gather(values: ir.Value, indices: ir.Value) -> ir.Value:
    """values[indices] for 1-D tensors."""
    n = ir.RankedTensorType(indices.type).shape[0]
    column = stablehlo.reshape(indices, result_type=ir.RankedTensorType.get(
        [n, 1], ir.RankedTensorType(indices.type).element_type))
    return stablehlo.gather(values, column, offset_dims=[], collapsed_slice_dims=[0],
                            start_index_map=[0], index_vector_dim=1, slice_sizes=[1],
                            result_type=ir.RankedTensorType.get(
                                [n], ir.RankedTensorType(values.type).element_type))


@dataclasses.dataclass
class _Layout:
    """Where the network keeps each element of a row of 2**bits: the lowest SPREAD_BITS bits
    of its position swapped with the highest (rows of 1, 2 or 4 elements vectorize badly,
    and a sort's steps meet the lowest bits most often, the highest least often), the others
    in place. Nothing moves before the sort (the order elements start in does not matter;
    positions are carried as they are); the results move once, at the end."""
    bits: int

    @property
    def spread(self) -> int:
        return SPREAD_BITS if self.bits >= 2 * SPREAD_BITS else 0

    def storage_bit(self, bit: int) -> int:
        """The bit of the storage index that holds bit `bit` of an element's position."""
        low, high = self.spread, self.bits - self.spread
        if bit < low:
            return bit + high
        if high <= bit < self.bits:
            return bit - high
        return bit

    def restore(self, value: ir.Value, rows: int) -> ir.Value:
        """The flat [rows * 2**bits] `value` in position order."""
        if not self.spread:
            return value
        t = ir.RankedTensorType(value.type)
        outer = 1 << self.spread
        middle = (1 << self.bits) // (outer * outer)
        value = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
            [rows, outer, middle, outer], t.element_type))
        value = stablehlo.transpose(value, permutation=[0, 3, 2, 1])
        return stablehlo.reshape(value, result_type=t)


def _side(value: ir.Value, side: int) -> ir.Value:
    """One side of every pair of `value` ([pairs, 2, chunks, lanes]), in that shape (the same
    for both places of a pair)."""
    t = ir.RankedTensorType(value.type)
    limit = list(t.shape)
    limit[1] = side + 1
    value = stablehlo.slice(value, start_indices=[0, side, 0, 0], limit_indices=limit,
                            strides=[1, 1, 1, 1])
    return stablehlo.broadcast_in_dim(value, broadcast_dimensions=[0, 1, 2, 3], result_type=t)


def _broadcast(scalar: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    return stablehlo.broadcast_in_dim(scalar, broadcast_dimensions=[], result_type=t)


def _splat(t: ir.RankedTensorType, value: int) -> ir.Value:
    return stablehlo.constant(ir.DenseElementsAttr.get_splat(
        t, ir.IntegerAttr.get(t.element_type, value)))


def _opaque_padding(value: ir.Value, opaque_zero: ir.Value) -> ir.Value:
    """A scalar constant's bits xor an opaque i32 zero: the same value, which IREE cannot
    fold to a constant (nor share with another sort's padding); complex values stay."""
    element = ir.RankedTensorType(value.type).element_type
    if isinstance(element.maybe_downcast(), ir.ComplexType):
        return value            # (a complex bitcast is expanded before this pass)
    bits = ir.IntegerType.get_signless(bit_width(element))
    scalar = ir.RankedTensorType.get([], bits)
    raw = value if element == bits else stablehlo.bitcast_convert(value, result_type=scalar)
    raw = stablehlo.xor(raw, stablehlo.convert(opaque_zero, result_type=scalar))
    return raw if element == bits else stablehlo.bitcast_convert(raw, result_type=value.type)


def _opaque_scalars(sort: ir.Operation, values: list[int]) -> list[ir.Value]:
    """i32 scalars that IREE neither folds into the dispatches that read them nor evaluates
    at compile time, made at the start of the function: one constant vector behind an
    optimization_barrier (a constant behind a fusion barrier IREE still evaluated, and then
    hoisted every step's index tensor into memory; a barrier per scalar cost a host wait
    each), each element sliced out behind a fusion barrier (sliced in the dispatches that
    read it, each offset would make a dispatch of its own)."""
    function = sort.operation
    while function is not None and function.name != "func.func":
        function = function.parent
    i32 = ir.IntegerType.get_signless(32)
    entry = None if function is None else function.regions[0].blocks[0]
    # one table per sort: a last entry unlike any other table's keeps cse from merging them
    salt = 0 if entry is None else len(entry.operations)
    with ir.InsertionPoint(sort) if entry is None else ir.InsertionPoint.at_block_begin(entry):
        table = extras.optimization_barrier([stablehlo.constant(ir.DenseElementsAttr.get(
            np.asarray([*values, salt], np.int32),
            type=ir.RankedTensorType.get([len(values) + 1], i32)))])[0]
        out = []
        for i in range(len(values)):
            one = stablehlo.slice(table, start_indices=[i], limit_indices=[i + 1], strides=[1])
            out.append(extras.fusion_barrier(stablehlo.reshape(
                one, result_type=ir.RankedTensorType.get([], i32))))
        return out


def _lookup(env: dict, value: ir.Value, shape) -> ir.Value:
    """The tensor standing for a comparator value; a scalar from outside the region (CSE
    shares constants with the enclosing function) is broadcast to the step's shape."""
    if value in env:
        return env[value]
    env[value] = stablehlo.broadcast_in_dim(value, broadcast_dimensions=[],
                                            result_type=_widened(value.type, shape))
    return env[value]


def _widened(t: ir.Type, shape) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), ir.RankedTensorType(t).element_type)


def _last(element: ir.Type, descending: bool) -> ir.DenseElementsAttr:
    """The integer value that an order by value puts last (padding that needs no position:
    a real key equal to it is the same value)."""
    integer = ir.IntegerType(element)
    width = integer.width
    low, high = (0, 2 ** width - 1) if integer.is_unsigned else (-2 ** (width - 1),
                                                                  2 ** (width - 1) - 1)
    return ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], element),
                                          ir.IntegerAttr.get(element, low if descending else high))


def _zero(element: ir.Type) -> ir.DenseElementsAttr:
    t = ir.RankedTensorType.get([], element)
    if isinstance(element.maybe_downcast(), ir.IntegerType):
        return ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(element, 0))
    if isinstance(element.maybe_downcast(), ir.ComplexType):
        return ir.DenseElementsAttr.get(np.zeros((), _complex_dtype(element)), type=t)
    return ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(element, 0.0))


def _complex_dtype(element: ir.Type):
    return np.complex128 if str(ir.ComplexType(element).element_type) == "f64" else np.complex64
