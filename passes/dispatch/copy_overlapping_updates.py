"""shlo-copy-overlapping-updates: rewrite a dynamic_update_slice whose update is a view of its own
operand into a select, which IREE computes into a new buffer; a scatter whose updates are a
view of its own input reads them through an optimization_barrier (IREE fails to compile some
of those scatters), and updates that are its input itself through a copy (a barrier's result
shares its operand's buffer); a computed value that a pad, dynamic_update_slice or
concatenate writes into a buffer computed from a while, if or case is read through an
optimization_barrier.

IREE writes `dynamic_update_slice(x, u, i)` in place into x's buffer; when u is a view of x
(`x[:-1]`) it reads u after writing it (llvm-cpu: silently wrong, or a run-time error; vulkan:
fails to compile; docs/iree_gaps.md#shlo-copy-overlapping-updates), and when an earlier
while, if or case reads x (in its regions, or as a while's initial value), the write came
before that read. This pass rewrites such an update (static shapes; u a view of x, or of
what x reinterprets in place, through slices, reshapes, transposes, broadcasts, converts,
barriers, or x read so) into

    select(dynamic_update_slice(falses, trues, start), dynamic_update_slice(zeros, u, start), x)

with the start indices clamped as dynamic_update_slice clamps them (the update lands in a fresh
constant, never in x's buffer); the form dynamic_slice(pad(u), ...) fails to compile on vulkan
for a 3-D update.

An update computed from x by ops that may return an operand unchanged (`_may_return`: not
a product, a transcendental function, a compare, ...; float arithmetic only by its identity
constant, or a maximum or minimum of a value and itself) is read through a copy: IREE folds
identities shlo does not know into their operand (`maximum(x, -inf)`, a shift by 0, before
shlo-fold-identity-ops knew them) and then copied a view of x into x in place. An update
computed from x at starts all computed from constants has them read through a barrier: IREE
wrote the update's dispatch straight into x's buffer at that start while it read x.

IREE writes a computed value that only an update reads straight into the update's
destination, and first moves the ops that compute the destination (a pad's splat of its
padding value, a dynamic_update_slice's operand, a concatenate's earlier inputs) above the
value's dispatch by their operands alone: an scf.if or scf.while among them moves above a
value its regions read ("operand #1 does not dominate this use", every target, also without
shlo's passes; docs/iree_gaps.md#fence-control-flow-updates-updates-of-values-after-control-flow).
Read through a barrier, the value is computed into a buffer of its own and copied.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import BUFFER_VIEWS, Pass, nested_ops
from ..folding.simplify_fold import array_of
from ..lib import builders as extras
from ..lib.expr import bit_width, element_of, is_complex, is_float
from ..op_rules import apply_rules


def _is_view_of(update: ir.Value, operand: ir.Value) -> bool:
    """Whether `update` is `operand` or a view of it through BUFFER_VIEWS ops (and barriers)."""
    while update != operand:
        if not isinstance(update, ir.OpResult):
            return False                                  # a block argument
        op = update.owner.operation
        if op.name == "stablehlo.optimization_barrier":
            update = op.operands[update.result_number]
        elif op.name in BUFFER_VIEWS:
            update = op.operands[0]
        else:
            return False
    return True


def _same_buffer_sources(value: ir.Value) -> list[ir.Value]:
    """`value` and what it reinterprets in place, transitively: the operand of a reshape or of
    a bitcast_convert between element types of one width (IREE keeps their buffer)."""
    found = [value]
    while isinstance(value, ir.OpResult) and value.owner.name in (
            "stablehlo.reshape", "stablehlo.bitcast_convert"):
        source = value.owner.operands[0]
        widths = {_width(v.type) for v in (source, value)}
        if len(widths) != 1 or None in widths:
            break
        found.append(source)
        value = source
    return found


def _width(t: ir.Type) -> int | None:
    element = ir.ShapedType(t).element_type.maybe_downcast()
    return None if is_complex(element) else bit_width(element)


def _scalar(value: ir.Value, element: ir.Type) -> ir.Value:
    return stablehlo.constant(value, result_type=ir.RankedTensorType.get([], element))


def _rewrite(op: ir.Operation):
    """The select form of a dynamic_update_slice whose update is a view of its operand, or
    whose operand an earlier while, if or case reads."""
    if not _rewrite_needed(op):
        return None
    return _as_select(op)


def _as_select(op: ir.Operation):
    operand, update, starts = op.operands[0], op.operands[1], list(op.operands[2:])
    shape_type = ir.RankedTensorType(operand.type)
    update_type = ir.RankedTensorType(update.type)
    shape, sizes = list(shape_type.shape), list(update_type.shape)
    if 0 in sizes:
        return [operand]                                  # an empty update changes nothing
    i64 = ir.IntegerType.get_signless(64)
    offsets = []
    for d, start in enumerate(starts):
        start_element = ir.RankedTensorType(start.type).element_type
        clamped = stablehlo.clamp(_scalar(0, start_element), start,
                                  _scalar(shape[d] - sizes[d], start_element))
        offsets.append(stablehlo.convert(clamped, result_type=ir.RankedTensorType.get([], i64)))
    # the filler is never selected; a constant, not a splat of an element of the update: IREE
    # 3.13's llvm-cpu compile hung on the splat of u[0] (fuzz seed 75 program 237)
    filler = stablehlo.constant(0, result_type=shape_type)
    shifted = stablehlo.dynamic_update_slice(filler, update, offsets)
    if sizes == shape:
        return [shifted]                                  # the update is the whole result
    # where the update lands: the same update of trues into falses (not iota compares: on
    # vulkan IREE put a reduce's iota in shared memory of index type and failed to compile,
    # seed 70 program 1066)
    i1 = ir.IntegerType.get_signless(1)
    mask = stablehlo.dynamic_update_slice(
        stablehlo.constant(False, result_type=ir.RankedTensorType.get(shape, i1)),
        stablehlo.constant(True, result_type=ir.RankedTensorType.get(sizes, i1)), offsets)
    return [stablehlo.select(mask, shifted, operand)]


@dataclasses.dataclass
class CopyOverlappingUpdates(Pass):
    """Rewrite dynamic_update_slice(x, view of x, i) into a select IREE computes into a new
    buffer."""

    NAME = "shlo-copy-overlapping-updates"

    def run(self, op: ir.Operation) -> None:
        if any(_rewrite_needed(o) for o in nested_ops(op, "stablehlo.dynamic_update_slice")):
            apply_rules(op, {"stablehlo.dynamic_update_slice": _rewrite}, self.NAME)
        for update in nested_ops(op, "stablehlo.dynamic_update_slice"):
            _protect_own_update(update)
        for scatter in nested_ops(op, "stablehlo.scatter"):
            _copy_own_updates(scatter)
        after = _after_control_flow(op)
        for update in nested_ops(op):
            if update.name in _UPDATES:
                _fence_updates_after_control_flow(update, after)


def _back(value: ir.Value, names) -> ir.Value:
    """`value` followed back through the first operands of ops named in `names`."""
    while isinstance(value, ir.OpResult) and value.owner.name in names:
        value = value.owner.operands[0]
    return value


_VIEWS_AND_PADS = BUFFER_VIEWS | {"stablehlo.pad"}


def _root(value: ir.Value, fenced: bool = False) -> ir.Value:
    """The value `value` is a view (BUFFER_VIEWS) or a pad of (`fenced`: or a fusion barrier's
    result of), followed back as far as it goes."""
    return _back(value, (_VIEWS_AND_PADS | {extras.FUSION_BARRIER}) if fenced else _VIEWS_AND_PADS)


def _unfenced(value: ir.Value) -> ir.Value:
    """`value`, or what the fusion barriers it is the result of read (IREE drops a barrier
    between two values it reads the same way: the barrier's result is its operand)."""
    return _back(value, (extras.FUSION_BARRIER,))


def _copy_own_updates(scatter: ir.Operation) -> None:
    """A scatter's updates that are one of its inputs (also behind a fusion barrier: the
    padded updates shlo-canonicalize-scatter computes apart), a copy, its indices computed in
    dispatches of their own; updates that are views of what one of its inputs is a view or a
    pad of, read through an optimization_barrier (a copy)."""
    n = (len(scatter.operands) - 1) // 2
    inputs = list(scatter.operands)[:n]
    for k in range(n + 1, 2 * n + 1):
        update = scatter.operands[k]
        owner = update.owner
        if isinstance(owner, ir.Block) or owner.name == "stablehlo.optimization_barrier":
            continue
        if _unfenced(update) in inputs or (
                any(_root(update, fenced=True) == _root(x) for x in inputs) and
                _root(update) != _root(update, fenced=True)):
            # the indices fenced too: fused into the scatter next to a copied update, IREE
            # computed all of them on llvm-cpu's stack (65537 updates: 262208 bytes)
            with ir.InsertionPoint(scatter), scatter.location:
                scatter.operands[k] = _copy(_unfenced(update))
                if ir.RankedTensorType(scatter.operands[n].type).has_static_shape:
                    scatter.operands[n] = extras.fence([scatter.operands[n]])[0]
        elif any(_root(update) == _root(x) for x in inputs):
            with ir.InsertionPoint(scatter), scatter.location:
                copied = stablehlo.optimization_barrier([update])   # (a fusion barrier: no)
                scatter.operands[k] = copied[0] if isinstance(copied, list) else copied


def _copy(value: ir.Value) -> ir.Value:
    """`value` computed into a buffer of its own: select(c, value, 0) with c a barrier's true,
    in dispatches of its own.
    An optimization_barrier of a scatter's own input is no copy: IREE read the updates from
    the buffer it scattered into in place (seed 98 program 824, cpu and vulkan), and
    scatter(x, i, x) crashed IREE's vulkan compile (seed 62 program 179)."""
    t, i1 = ir.RankedTensorType(value.type), ir.IntegerType.get_signless(1)
    true = extras.optimization_barrier([_scalar(True, i1)])[0]
    mask = stablehlo.broadcast_in_dim(true, broadcast_dimensions=[],
                                      result_type=ir.RankedTensorType.get(t.shape, i1))
    # fenced: fused into the scatter, the copy's tile overflowed llvm-cpu's stack
    return extras.fence([stablehlo.select(mask, value, stablehlo.constant(0, result_type=t))])[0]


def _rewrite_needed(op: ir.Operation) -> bool:
    update_type = ir.RankedTensorType(op.operands[1].type)
    return (ir.RankedTensorType(op.operands[0].type).has_static_shape
            and update_type.has_static_shape and (
                any(_is_view_of(op.operands[1], source)
                    for source in _same_buffer_sources(op.operands[0]))
                or (not _is_constant(op.operands[0])
                    and _read_in_earlier_regions(op.operands[0], op))))


def _protect_own_update(op: ir.Operation) -> None:
    """dynamic_update_slice(x, u, i) with u computed from x, or from a value x may be after
    IREE's folds (`_may_return`): start indices all computed from constants read through an
    optimization_barrier, and u through a copy where it may be a view of such a value.
    IREE writes u's dispatch straight into x's buffer at a start it knows at compile time,
    while that dispatch reads x: `d = x.at[1:].set(...); d.at[4:k + 4].set(-d[:k])` came out
    wrong on cpu and vulkan (a quarter of 2^17), also without shlo's passes (a start known
    only at run time was right). And IREE folds some ops into their operand that shlo does
    not (an identity it does not know: `maximum(v, -inf)`, `select(v <= 0, 0, v)` of an
    unsigned v), and then copied a view of v into v in place, overlapping: silently wrong on
    llvm-cpu, a dispatch SPIR-V cannot compile on vulkan."""
    operand, update = op.operands[0], op.operands[1]
    if not (isinstance(update, ir.OpResult)
            and ir.RankedTensorType(update.type).has_static_shape):
        return
    with op.location:               # (reading a splat constant makes a type)
        views, cut = _behind([operand], _may_return)
        if not (cut or _reaches([update], views.__contains__, _any_operand, True)):
            return
        copy = update.owner.name not in (extras.FUSION_BARRIER,
                                         "stablehlo.optimization_barrier") \
            and (cut or _reaches([update], views.__contains__, _may_return, True))
    with ir.InsertionPoint(op), op.location:
        if copy:
            op.operands[1] = _copy(update)
        starts = list(op.operands[2:])
        if not _reaches(starts, _is_argument, _any_operand, False):
            # all known when compiling (a start known only at run time was right)
            for k, start in enumerate(extras.optimization_barrier(starts)):
                op.operands[2 + k] = start


_WALK_LIMIT = 4096      # ops followed back from a value, at most: past it, assume the worst


def _any_operand(op: ir.Operation, k: int) -> bool:
    return True


def _is_argument(value: ir.Value) -> bool:
    return isinstance(value, ir.BlockArgument)


def _walk(values: list[ir.Value], follow):
    """`values` and the values they are computed from through the operands k of ops for
    which `follow(op, k)` holds, each once; then None if the walk passes _WALK_LIMIT ops."""
    stack, seen, ops = list(values), set(), set()
    while stack:
        value = stack.pop()
        if value in seen:
            continue
        seen.add(value)
        yield value
        if isinstance(value, ir.OpResult) and value.owner.operation not in ops:
            op = value.owner.operation
            ops.add(op)
            if len(ops) > _WALK_LIMIT:
                yield None
                return
            stack.extend(v for k, v in enumerate(op.operands) if follow(op, k))


def _reaches(values: list[ir.Value], found, follow, past_limit: bool) -> bool:
    """Whether `found(v)` holds for a value `_walk(values, follow)` yields (`past_limit` when
    the walk passes its limit first)."""
    for value in _walk(values, follow):
        if value is None:
            return past_limit
        if found(value):
            return True
    return False


def _behind(values: list[ir.Value], follow) -> tuple[set, bool]:
    """The values `_walk(values, follow)` yields, and whether it passed its limit."""
    found: set[ir.Value] = set()
    for value in _walk(values, follow):
        if value is None:
            return found, True
        found.add(value)
    return found, False


# ops whose result is never one of their operands, whatever the others: a value computed
# through one of them is no view of that operand (a dynamic_update_slice of an empty update
# is folded before: chains of updates are not followed)
_COMPUTING = frozenset(f"stablehlo.{name}" for name in (
    "dot_general", "dot", "convolution", "exponential", "exponential_minus_one", "log",
    "log_plus_one", "logistic", "tanh", "sine", "cosine", "tan", "sqrt", "rsqrt", "cbrt",
    "atan2", "abs", "sign", "floor", "ceil", "round_nearest_afz", "round_nearest_even",
    "compare", "is_finite", "popcnt", "count_leading_zeros", "gather", "scatter",
    "fft", "cholesky", "triangular_solve", "custom_call", "rng", "rng_bit_generator",
    "iota", "constant", "dynamic_update_slice"))


# real float arithmetic -> the constants by which it may return its other operand (+-0 alike)
_FOLDING_CONSTANTS = {f"stablehlo.{name}": values for name, values in (
    ("add", (0.0,)), ("subtract", (0.0,)), ("multiply", (1.0,)), ("divide", (1.0,)),
    ("power", (1.0,)), ("maximum", (-np.inf,)), ("minimum", (np.inf,)),
    ("remainder", (np.inf, -np.inf)))}


def _may_return(op: ir.Operation, k: int) -> bool:
    """Whether `op` may return its operand `k` unchanged: not an op of _COMPUTING; real float
    arithmetic only by its identity constant (x + 0, x * 1, max(x, -inf), ...), or the
    maximum or minimum of a value and itself (IREE folds no other float arithmetic: no fast
    math)."""
    if op.name in _COMPUTING:
        return False
    if op.name not in _FOLDING_CONSTANTS or not is_float(element_of(op.results[0])):
        return True
    other = op.operands[1 - k]
    if other == op.operands[k]:
        return op.name in ("stablehlo.maximum", "stablehlo.minimum")
    values = array_of(_back(other, ("stablehlo.broadcast_in_dim", "stablehlo.reshape",
                                    "stablehlo.convert")))
    return values is not None and bool(
        np.isin(values.astype(np.float64), _FOLDING_CONSTANTS[op.name]).all())


def _is_constant(value: ir.Value) -> bool:
    """Whether `value` is a constant: IREE updates a copy of it, never its buffer (and the
    select form's own updates of constants must not be rewritten again when a region reads
    the same constant: seed 135 program 27)."""
    return isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.constant"


_CONTROL_FLOW = ("stablehlo.while", "stablehlo.if", "stablehlo.case")


def _with_barrier_results(value: ir.Value) -> list[ir.Value]:
    """`value` and the results of optimization_barriers that pass it on, transitively."""
    found, i = [value], 0
    while i < len(found):
        for use in found[i].uses:
            user = use.owner.operation
            if user.name == "stablehlo.optimization_barrier":
                found.append(user.results[use.operand_number])
        i += 1
    return found


def _read_in_earlier_regions(value: ir.Value, op: ir.Operation) -> bool:
    """Whether a while, if or case that comes before `op` in its block reads `value` (as a
    while's initial value, or in its regions). IREE wrote a dynamic_update_slice of `value`
    in place before a region's dispatch read it (every target, also without shlo's passes;
    seed 70 program 766), and on vulkan into a while's initial value. Reads of an
    optimization_barrier's result of `value` count (it shares the buffer)."""
    block, readers = op.block, set()
    for use in [use for v in _with_barrier_results(value) for use in v.uses]:
        parent = use.owner.operation
        while parent.parent is not None and parent.block != block:
            parent = parent.parent.operation
        if parent.name in _CONTROL_FLOW:
            readers.add(parent)
    if readers:                     # (the block is walked only for values such ops read)
        for other in block.operations:
            if other.operation == op.operation:
                break
            if other.operation in readers:
                return True
    return False

# op -> (the operands IREE writes into the result's buffer, the operands that compute that
# buffer); None: every operand
_UPDATES = {"stablehlo.pad": ((0,), (1,)),
            "stablehlo.dynamic_update_slice": ((1,), (0,)),
            "stablehlo.concatenate": (None, None)}


def _after_control_flow(root: ir.Operation) -> set:
    """The ops in `root` computed, in their block, from the results of a while, if or case
    (one walk: the ops of a block come in order)."""
    found: set = set()
    for op in nested_ops(root):
        if op.name in _CONTROL_FLOW or any(
                isinstance(v, ir.OpResult) and v.owner.operation in found
                and v.owner.operation.block == op.block for v in op.operands):
            found.add(op)
    return found


# ops IREE computes no dispatch for: their result is their operand's buffer, or a range of it
_NO_DISPATCH = frozenset({"stablehlo.slice", "stablehlo.reshape", "stablehlo.bitcast_convert"})


def _computed(value: ir.Value) -> bool:
    """Whether `value` is computed by a dispatch: not an argument, a constant or a barrier,
    nor a slice, reshape or bitcast of one (a convert, a broadcast or a transpose of an
    argument is a dispatch)."""
    value = _back(value, _NO_DISPATCH)
    return isinstance(value, ir.OpResult) and value.owner.name not in (
        "stablehlo.constant", "stablehlo.optimization_barrier")


def _fence_updates_after_control_flow(op: ir.Operation, after: set) -> None:
    """Each computed value that only a pad, dynamic_update_slice or concatenate reads and
    writes into a buffer computed from a while, if or case (its op in `after`, in `op`'s
    block), read through an optimization_barrier of its own. Static shapes."""
    written, destination = _UPDATES[op.name]
    every = range(len(op.operands))
    for k in (every if written is None else written):
        value = op.operands[k]
        if _computed(value) and \
                ir.RankedTensorType(value.type).has_static_shape and \
                any(i != k and isinstance(op.operands[i], ir.OpResult)
                    and op.operands[i].owner.operation in after
                    and op.operands[i].owner.operation.block == op.block
                    for i in (every if destination is None else destination)):
            with ir.InsertionPoint(op), op.location:
                op.operands[k] = extras.optimization_barrier([value])[0]
