"""Rewrites that bound how many input elements one result of a reduction reads: a reduce, a
cumulative reduce_window (a scan) or a dot_general contraction longer than `limit` becomes
stages no longer than `limit`. shlo-split-long-reduce applies them with `max-length=N`
(the Vulkan target: lavapipe ends every shader's loops after 65535 iterations in all,
docs/iree_gaps.md#shlo-split-long-reduce).

Each rewrite keeps the spec's order: a reduction's elements are cut into consecutive blocks in
the order of their indices, each block is reduced, then the blocks' results in order, so any
body (variadic ones included: arg-max) gives what one reduce gives with its schedule
regrouped, which the spec leaves to the implementation. Padding to whole blocks and the first
stage's init use the body's identity where it is one known op (add, multiply, max, min, and,
or), else the init value (the spec lets an implementation use it any number of times).
Static shapes only; a stage that is still too long is split again by the same rule. A scatter
or convolution cut into more than IN_LINE pieces does them in a loop over dynamic slices
(`_loop`: one executable for all pieces, not one each). An op with run-time sizes gets
instead a run-time check that one result reads at most `limit` elements (`check_length`: a
clean error, specialize=True then splits per argument shape).
"""
from __future__ import annotations

import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import element_dtype
from shlo.errors import PassError
from ..base import binary_body
from ..element_types.expand_complex_pad import pad_by_parts
from ..lib.expr import element_of, is_complex, is_float
from ..lib import builders as extras
from ..lib.builders import fusion_barrier
from ..custom_calls.cumulative_window import IDENTITIES, is_identity
from ..op_rules import CANONICAL

COMBINE = {"stablehlo.add": stablehlo.add, "stablehlo.multiply": stablehlo.multiply,
           "stablehlo.maximum": stablehlo.maximum, "stablehlo.minimum": stablehlo.minimum,
           "stablehlo.and": stablehlo.and_, "stablehlo.or": stablehlo.or_}
IN_LINE = 16        # pieces of a split written out one after another; more become a loop
TRIPS = 16          # trips of such a loop, at most (each does as many pieces)

def _results(values) -> list[ir.Value]:
    return list(values) if isinstance(values, (list, tuple)) else [values]


def _tensor(shape, element) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element)


def identity_of(op: ir.Operation, inits: list[ir.Value]) -> list[ir.Value]:
    """The body's identity as a 0-d constant where the body is one known op on integers or
    floats, else `inits`."""
    combine = binary_body(op)
    element = element_of(inits[0]).maybe_downcast()
    if len(inits) != 1 or combine is None or combine.name not in IDENTITIES:
        return list(inits)
    if is_float(element):
        value = IDENTITIES[combine.name]("f", element.width)
    elif isinstance(element, ir.IntegerType):
        kind = "b" if element.width == 1 else "u" if element.is_unsigned else "s"
        value = IDENTITIES[combine.name](kind, element.width)
        value = bool(value & 1) if element.width == 1 else (
            value % (1 << element.width) if kind == "u" else value)
    else:
        return list(inits)      # complex
    return [stablehlo.constant(np.array(value, element_dtype(element)),
                               result_type=_tensor([], element))]


def _blocks(size: int, most: int) -> tuple[int, int]:
    """(a, b): `size` cut into a blocks of b elements (a * b >= size, padded), b <= most."""
    a = -(-size // most)
    return a, -(-size // a)


def _cut(x: ir.Value, fill: ir.Value, dim: int, a: int, b: int, at_end: bool = True) -> ir.Value:
    """`x` padded by `fill` along `dim` to a * b elements (at its end or start) and that
    dimension seen as [a, b]."""
    shape = list(ir.RankedTensorType(x.type).shape)
    extra = a * b - shape[dim]
    if extra:
        low, high = [0] * len(shape), [0] * len(shape)
        (high if at_end else low)[dim] = extra
        padding = dict(edge_padding_low=low, edge_padding_high=high,
                       interior_padding=[0] * len(shape))
        if is_complex(element_of(x)):       # (IREE's compiler crashes on a complex pad)
            x = pad_by_parts(x, fill, **padding)
        else:
            x = stablehlo.pad(x, fill, **padding)
    return stablehlo.reshape(x, result_type=_tensor(shape[:dim] + [a, b] + shape[dim + 1:],
                                                    element_of(x)))


# ---- reduce ---------------------------------------------------------------------------------

def bounded_reduce(op: ir.Operation, limit: int):
    """A reduce reading more than `limit` elements per result: first over the trailing blocks
    of at most `limit` elements, then over the blocks."""
    (inputs, inits), kw = arguments(op)
    t = ir.RankedTensorType(inputs[0].type)
    dims = sorted(int(d) for d in kw["dimensions"])
    if not t.has_static_shape or math.prod(t.shape[d] for d in dims) <= limit:
        return None
    shape = list(t.shape)
    inner = 1                   # the reduced elements after dimension `cut`
    for cut in reversed(dims):
        if inner * shape[cut] > limit:
            break
        inner *= shape[cut]
    a, b = _blocks(shape[cut], limit // inner)
    fill = identity_of(op, inits)
    blocked = [_cut(x, f, cut, a, b) for x, f in zip(inputs, fill)]
    # in the blocked operand: b sits at cut + 1, the later reduced dimensions one further
    first = [cut + 1] + [d + 1 for d in dims if d > cut]
    partial = _results(stablehlo.reduce(blocked, fill, dimensions=first, body=kw["body"]))
    kept = [d for d in range(len(shape) + 1) if d not in first]
    second = [kept.index(d) for d in dims if d < cut] + [kept.index(cut)]
    return _results(stablehlo.reduce(partial, list(inits), dimensions=second, body=kw["body"]))


# ---- reduce_window --------------------------------------------------------------------------

def slice_along(x: ir.Value, dim: int, start: int, limit: int) -> ir.Value:
    """`x`'s elements start .. limit - 1 along `dim`."""
    shape = list(ir.RankedTensorType(x.type).shape)
    starts, limits = [0] * len(shape), list(shape)
    starts[dim], limits[dim] = start, limit
    return stablehlo.slice(x, start_indices=starts, limit_indices=limits)


def _reshape(x: ir.Value, shape) -> ir.Value:
    return stablehlo.reshape(x, result_type=_tensor(shape, element_of(x)))


def _scan(inputs, inits, body, dim: int, reverse: bool, limit: int,
          combine=None) -> list[ir.Value]:
    """The inclusive scan along `dim` of a window over the whole dimension (`reverse`: from its
    end), blocked: a scan within blocks of at most `limit`, a scan of the block totals (split
    again when longer than `limit`), and each block's exclusive prefix combined with it (by
    `combine`, the body's one op, where given; else by a reduce with the body)."""
    shape = list(ir.RankedTensorType(inputs[0].type).shape)
    rank, n = len(shape), shape[dim]
    if n <= limit:
        window, padding = [1] * rank, [[0, 0]] * rank
        window[dim] = n
        padding[dim] = [0, n - 1] if reverse else [n - 1, 0]
        return _results(stablehlo.reduce_window(inputs, inits, window_dimensions=window,
                                                padding=padding, body=body))
    a, b = _blocks(n, limit)
    blocked = [_cut(x, f, dim, a, b, at_end=not reverse) for x, f in zip(inputs, inits)]
    local = _scan(blocked, inits, body, dim + 1, reverse, limit, combine)   # [.., a, b, ..]
    last = 0 if reverse else b - 1
    totals = [_reshape(slice_along(v, dim + 1, last, last + 1),
                       shape[:dim] + [a] + shape[dim + 1:]) for v in local]
    before = _scan(totals, inits, body, dim, reverse, limit, combine)       # [.., a, ..]
    one = shape[:dim] + [1] + shape[dim + 1:]
    starts = [stablehlo.broadcast_in_dim(f, broadcast_dimensions=[],
                                         result_type=_tensor(one, element_of(f)))
              for f in inits]
    # each block's exclusive prefix: the scan of the totals shifted by one block
    prefix = [stablehlo.concatenate([slice_along(v, dim, 1, a), s] if reverse else
                                    [s, slice_along(v, dim, 0, a - 1)], dimension=dim)
              for v, s in zip(before, starts)]
    full = shape[:dim] + [a, b] + shape[dim + 1:]
    prefix = [stablehlo.broadcast_in_dim(
        p, broadcast_dimensions=[d for d in range(rank + 1) if d != dim + 1],
        result_type=_tensor(full, element_of(p))) for p in prefix]
    if combine is not None:
        combined = [combine(*((v, p) if reverse else (p, v))) for v, p in zip(local, prefix)]
    else:
        pairs = [stablehlo.concatenate([_reshape(u, full + [1]) for u in (
            (v, p) if reverse else (p, v))], dimension=rank + 1) for v, p in zip(local, prefix)]
        combined = _results(stablehlo.reduce(pairs, inits, dimensions=[rank + 1], body=body))
    flat = [_reshape(v, shape[:dim] + [a * b] + shape[dim + 1:]) for v in combined]
    start = a * b - n if reverse else 0
    return [slice_along(v, dim, start, start + n) for v in flat] if a * b != n else flat


def _cumulative(kw: dict, t: ir.RankedTensorType) -> tuple[int, bool] | None:
    """(the dimension, whether from its end) where a reduce_window (`kw`: its attributes as
    `arguments` gives them, `t`: its first input's type) is cumulative with static shapes: a
    window over a whole dimension, padded by its size - 1 on one side, and 1 elsewhere
    (jnp.cumsum, cummax, ...); else None."""
    from ..expand.expand_reduce_window import window_attributes
    if not t.has_static_shape:
        return None
    window, strides, base, dilation, padding = window_attributes(kw, t.rank)
    moved = [d for d in range(t.rank) if window[d] != 1 or padding[d] != [0, 0]]
    if base != [1] * t.rank or dilation != [1] * t.rank or strides != [1] * t.rank \
            or len(moved) != 1:
        return None
    dim, n = moved[0], t.shape[moved[0]]
    if window[dim] != n or padding[dim] not in ([n - 1, 0], [0, n - 1]):
        return None
    return dim, padding[dim] == [0, n - 1]


def _scan_of(op: ir.Operation, inputs, inits, kw: dict, found: tuple[int, bool],
             limit: int) -> list[ir.Value]:
    """The cumulative reduce_window `op` (`_cumulative` found it) as a blocked scan."""
    one = binary_body(op) if len(inputs) == 1 else None
    return _scan(inputs, list(inits), kw["body"], *found, limit, one and COMBINE.get(one.name))


def blocked_scan(op: ir.Operation, limit: int):
    """A cumulative reduce_window (`_cumulative`) longer than `limit` as a blocked scan
    (`_scan`); None for any other. Its init must be one the blocks may repeat."""
    (inputs, inits), kw = arguments(op)
    t = ir.RankedTensorType(inputs[0].type)
    found = _cumulative(kw, t)
    if found is None or t.shape[found[0]] <= limit:
        return None
    return _scan_of(op, inputs, inits, kw, found, limit)


def bounded_window(op: ir.Operation, limit: int):
    """A reduce_window whose windows hold more than `limit` elements: a cumulative one as a
    blocked scan; one whose windows tile the input (strides = window, no padding) as a reduce
    of the tiles; any other raises PassError."""
    from ..expand.expand_reduce_window import window_attributes
    (inputs, inits), kw = arguments(op)
    t = ir.RankedTensorType(inputs[0].type)
    window, strides, base, dilation, padding = window_attributes(kw, t.rank)
    if not t.has_static_shape or math.prod(window) <= limit:
        return None
    found = _cumulative(kw, t)
    if found is not None:
        _check_identity(op, inits)
        return _scan_of(op, inputs, inits, kw, found, limit)
    shape = list(t.shape)
    plain = base == dilation == [1] * t.rank
    if plain and strides == window and all(p == [0, 0] for p in padding):
        tiled = []
        for x in inputs:
            x = stablehlo.slice(x, start_indices=[0] * t.rank,
                                limit_indices=[s - s % w for s, w in zip(shape, window)])
            tiled.append(_reshape(x, [k for s, w in zip(shape, window) for k in (s // w, w)]))
        return _results(stablehlo.reduce(tiled, list(inits), body=kw["body"],
                                         dimensions=list(range(1, 2 * t.rank, 2))))
    raise PassError(f"reduce_window: windows of {math.prod(window)} elements (window "
                    f"{window}, strides {strides}, padding {padding} over {shape}) are longer "
                    f"than {limit}, which this target computes wrongly; only cumulative "
                    f"windows and windows tiling the input are split")


def _check_identity(op: ir.Operation, inits) -> None:
    """A scan's padding is data: splitting it changes how often the init takes part, which
    only an identity init (or an idempotent body) allows."""
    combine = binary_body(op)
    if (combine is not None and combine.name in ("stablehlo.add", "stablehlo.multiply")
            and not is_identity(inits[0], combine.name)):
        raise PassError(f"reduce_window: a cumulative {combine.name} over more than the "
                        f"target's reduction length with an init that is not its identity "
                        f"cannot be split")


# ---- dot_general ----------------------------------------------------------------------------

def _zero(element: ir.Type) -> ir.Value:
    return stablehlo.constant(np.zeros((), element_dtype(element)), result_type=_tensor([], element))


def bounded_contraction(op: ir.Operation, limit: int):
    """A dot_general contracting more than `limit` elements per result: its largest
    contracting dimension cut into blocks (zero padded) that become a batch dimension, the
    products of the blocks then summed."""
    (lhs, rhs), kw = arguments(op)
    lt = ir.RankedTensorType(lhs.type)
    lc = list(kw["lhs_contracting_dimensions"])
    total = math.prod(lt.shape[d] for d in lc)
    if not (lt.has_static_shape and ir.RankedTensorType(rhs.type).has_static_shape) \
            or total <= limit:
        return None
    i = max(range(len(lc)), key=lambda k: lt.shape[lc[k]])
    size = lt.shape[lc[i]]
    a, b = _blocks(size, max(1, limit // (total // size)))
    return [contraction_in_blocks(lhs, rhs, kw, op.results[0].type, i, a, b)[0]]


def contraction_in_blocks(lhs: ir.Value, rhs: ir.Value, kw: dict, result_type: ir.Type, i: int,
                          a: int, b: int) -> tuple[ir.Value, ir.Operation]:
    """The dot_general of `lhs` and `rhs` (`kw`: its attributes, as `arguments` gives them)
    with contracting dimension pair `i` cut into `a` blocks of `b` (zero padded) that become
    the last batch dimension: (the blocks' products summed, the dot_general of the blocks)."""
    kw = dict(kw)
    lc, rc = list(kw["lhs_contracting_dimensions"]), list(kw["rhs_contracting_dimensions"])
    lhs = _cut(lhs, _zero(element_of(lhs)), lc[i], a, b)
    rhs = _cut(rhs, _zero(element_of(rhs)), rc[i], a, b)

    def moved(dims, cut):           # dimension numbers after `cut` became [a, b]
        return [d + 1 if d > cut else d for d in dims]
    lb, rb = list(kw.get("lhs_batching_dimensions") or []), list(kw.get(
        "rhs_batching_dimensions") or [])
    kw.update(lhs_batching_dimensions=moved(lb, lc[i]) + [lc[i]],
              rhs_batching_dimensions=moved(rb, rc[i]) + [rc[i]],
              lhs_contracting_dimensions=[d + 1 if d >= lc[i] else d for d in lc],
              rhs_contracting_dimensions=[d + 1 if d >= rc[i] else d for d in rc])
    result = ir.RankedTensorType(result_type)
    shape = list(result.shape)
    kw["result_type"] = _tensor(shape[:len(lb)] + [a] + shape[len(lb):], result.element_type)
    parts = stablehlo.dot_general(lhs, rhs, **kw)
    return (stablehlo.reduce([parts], [_zero(result.element_type)], dimensions=[len(lb)],
                             body=lambda x, y: stablehlo.add(x, y)), parts.owner)


# ---- scatter --------------------------------------------------------------------------------

def _scatter(inputs, indices, updates, kw) -> list[ir.Value]:
    out = _results(stablehlo.scatter(inputs, indices, updates, **kw))
    out[0].owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return out


def _i32(value: int) -> ir.Value:
    return stablehlo.constant(np.array(value, np.int32))


def _loop(first: int, stop: int, carried: list[ir.Value], step) -> list[ir.Value]:
    """`carried` after `step(k, *carried)` for k = first .. stop - 1 in order, each k a
    tensor<i32> that the compiler cannot fold (so that all steps are one executable): a
    stablehlo.while of at most TRIPS trips of equally many steps, then one of a step per trip
    for the steps left over. (IREE 3.13 copies what a loop carries on every trip and frees
    none of the copies before the loop ends: the trips are few. The numbers are the loops'
    counters, which IREE keeps on the host: numbers computed from a loop's result were
    computed on the device and read back.)"""
    trips = min(TRIPS, stop - first)
    per, rest = divmod(stop - first, trips)

    def steps(t, values, count):
        base = t if per == 1 else stablehlo.multiply(t, _i32(per))
        base = stablehlo.add(base, _i32(first)) if first else base
        for j in range(count):
            values = step(stablehlo.add(base, _i32(j)) if j else base, *values)
        return list(values)

    def cond(t, *_):
        return stablehlo.compare(t, _i32(trips), comparison_direction="LT")

    def body(t, *values):
        return [stablehlo.add(t, _i32(1)), *steps(t, values, per)]
    out = extras.while_([_i32(0), *carried], cond, body)[1:]
    return _loop(stop - rest, stop, out, step) if rest else out


def _take(x: ir.Value, dim: int, start, size: int, scale: int = 1) -> ir.Value:
    """`size` elements of `x` along `dim` from `start * scale`: a slice for an int `start`, a
    dynamic_slice for a tensor<i32> one."""
    if isinstance(start, int):
        return slice_along(x, dim, start * scale, start * scale + size)
    if scale != 1:
        start = stablehlo.multiply(start, _i32(scale))
    shape = list(ir.RankedTensorType(x.type).shape)
    starts = [start if d == dim else _i32(0) for d in range(len(shape))]
    shape[dim] = size
    return stablehlo.dynamic_slice(x, starts, slice_sizes=shape)


def _fenced(values: list[ir.Value]) -> list[ir.Value]:
    """The values an op computes behind fusion barriers, but for constants and those a
    fusion barrier gives; inside a while, if or case none (an optimization_barrier there
    would make the host wait on every trip)."""
    if extras.in_control_flow(ir.InsertionPoint.current.block.owner):
        return values
    bare = [v for v in values if isinstance(v.owner, (ir.Operation, ir.OpView))
            and v.owner.name not in (extras.FUSION_BARRIER, "stablehlo.constant")]
    fenced = dict(zip(bare, extras.fence(bare))) if bare else {}
    return [fenced.get(v, v) for v in values]


def _scatter_chunks(inputs, indices, updates, kw, step: int) -> list[ir.Value]:
    """Scatters of `step` updates at a time, in their order: in line up to IN_LINE chunks,
    else a loop over the whole chunks and one scatter of the rest."""
    n = ir.RankedTensorType(indices.type).shape[0]
    out, done = list(inputs), 0
    if -(-n // step) > IN_LINE:
        done = n // step * step
        # computed once before the loop, not fused into its trips (shlo-barrier-loop-captures)
        indices, *updates = _fenced([indices, *updates])

        def chunk(k, *values):
            return _scatter(list(values), _take(indices, 0, k, step, step),
                            [_take(u, 0, k, step, step) for u in updates], kw)
        out = _loop(0, n // step, out, chunk)
    for s in range(done, n, step):
        e = min(n, s + step)
        out = _scatter(out, slice_along(indices, 0, s, e),
                       [slice_along(u, 0, s, e) for u in updates], kw)
    return out


def _scatter_pieces(inputs, indices, updates, kw, at: int, cut: int, step: int):
    """The window's dimension `cut` (the operand's `at`) in pieces of `step`: a loop over the
    pieces but the last, each scattered into its dynamic slice of the operand and written
    back, then the last piece (to the operand's end) and a concatenate."""
    width = ir.RankedTensorType(updates[0].type).shape[cut + 1]
    count = (width - 1) // step         # the pieces before the last
    shape = list(ir.RankedTensorType(inputs[0].type).shape)
    indices, *updates = _fenced([indices, *updates])

    def piece(k, *values):
        out = _scatter([fusion_barrier(_take(x, at, k, step, step)) for x in values], indices,
                       [_take(u, cut + 1, k, step, step) for u in updates], kw)
        start = stablehlo.multiply(k, _i32(step))
        starts = [start if d == at else _i32(0) for d in range(len(shape))]
        return [stablehlo.dynamic_update_slice(x, o, starts) for x, o in zip(values, out)]
    looped = _loop(0, count, list(inputs), piece)
    done, size = count * step, shape[at]
    last = _scatter([fusion_barrier(slice_along(x, at, done, size)) for x in looped], indices,
                    [slice_along(u, cut + 1, done, width) for u in updates], kw)
    return [stablehlo.concatenate([slice_along(x, at, 0, done), o], dimension=at)
            for x, o in zip(looped, last)]


def bounded_scatter(op: ir.Operation, limit: int):
    """A scatter (in shlo-canonicalize-scatter's form: indices [N, k], updates [N, window of
    the operand's last dimensions]) of more than `limit` update elements: scatters of at most
    `limit` one after another (the updates in their order; more than IN_LINE of them as a
    loop), a window longer than `limit` cut along the operand into pieces scattered apart and
    concatenated."""
    if CANONICAL not in op.attributes:
        return None
    (inputs, indices, updates), kw = arguments(op)
    shape = list(ir.RankedTensorType(updates[0].type).shape)
    if (not all(ir.RankedTensorType(v.type).has_static_shape for v in [*inputs, indices])
            or kw.get("input_batching_dims") or math.prod(shape) <= limit):
        return None
    window = shape[1:]
    if math.prod(window) <= limit:
        return _scatter_chunks(inputs, indices, updates, kw, max(1, limit // math.prod(window)))
    j, inner = len(window), 1       # cut window dimension j - 1, the later ones fit
    while inner * window[j - 1] <= limit:
        j, inner = j - 1, inner * window[j - 1]
    cut, step = j - 1, max(1, limit // inner)
    at = ir.RankedTensorType(indices.type).shape[1] + cut      # that dimension in the operand
    size = ir.RankedTensorType(inputs[0].type).shape[at]
    if -(-window[cut] // step) > IN_LINE:
        return _scatter_pieces(inputs, indices, updates, kw, at, cut, step)
    pieces = []
    for s in range(0, window[cut], step):
        e = min(window[cut], s + step)
        end = size if e == window[cut] else e
        # (a slice fused into the scatter's dispatch goes to workgroup memory, past lavapipe's
        # limit: docs/iree_gaps.md#shlo-split-long-reduce)
        pieces.append(_scatter([fusion_barrier(slice_along(x, at, s, end)) for x in inputs],
                               indices, [slice_along(u, cut + 1, s, e) for u in updates], kw))
    return [stablehlo.concatenate(list(p), dimension=at) for p in zip(*pieces)]


# ---- convolution ----------------------------------------------------------------------------

def bounded_convolution(op: ir.Operation, limit: int):
    """A convolution summing more than `limit` products per result: the sum of convolutions
    over slices of the input features (kernels within `limit`) or of its longest kernel
    dimension (the input's padding and dilation there made explicit first)."""
    (lhs, rhs), kw = arguments(op)
    lt, rt = (ir.RankedTensorType(v.type) for v in (lhs, rhs))
    spatial = list(kw["kernel_spatial_dimensions"])
    window = math.prod(rt.shape[d] for d in spatial)
    features = rt.shape[kw["kernel_input_feature_dimension"]]
    if (not (lt.has_static_shape and rt.has_static_shape) or window * features <= limit
            or 0 in ir.RankedTensorType(op.results[0].type).shape):
        return None
    grouped = kw["feature_group_count"] != 1 or kw["batch_group_count"] != 1
    if any(kw.get("window_reversal") or ()) or (window <= limit and grouped):
        raise PassError(f"convolution: {window * features} products per result (kernel "
                        f"{list(rt.shape)}) are more than {limit}, which this target computes "
                        f"wrongly, and a reversed or grouped kernel is not split")
    kw["result_type"] = op.results[0].type
    if window <= limit:                 # slices of the input features
        step = max(1, limit // window)
        at_x, at_k = kw["input_feature_dimension"], kw["kernel_input_feature_dimension"]
        lhs, rhs = _fenced([lhs, rhs]) if -(-features // step) > IN_LINE else (lhs, rhs)
        return [_summed(features, step, kw["result_type"], lambda s, n: stablehlo.convolution(
            _take(lhs, at_x, s, n, step), _take(rhs, at_k, s, n, step), **kw))]
    else:                               # slices of the longest kernel dimension
        i = max(range(len(spatial)), key=lambda k: rt.shape[spatial[k]])
        at_x, at_k = kw["input_spatial_dimensions"][i], spatial[i]
        size = rt.shape[at_k]
        step = max(1, limit // (window // size * features))
        padding = [list(map(int, p)) for p in kw["padding"]]
        dilation = list(kw["lhs_dilation"] or [1] * len(spatial))
        low, high, interior = ([0] * lt.rank for _ in range(3))
        low[at_x], high[at_x] = padding[i]
        interior[at_x] = dilation[i] - 1
        x = stablehlo.pad(lhs, _zero(lt.element_type), edge_padding_low=low,
                          edge_padding_high=high, interior_padding=interior)
        padding[i], dilation[i] = [0, 0], 1
        kw.update(padding=padding, lhs_dilation=dilation)
        stride = kw["window_strides"][i] if kw.get("window_strides") else 1
        rd = kw["rhs_dilation"][i] if kw.get("rhs_dilation") else 1
        out = ir.RankedTensorType(op.results[0].type).shape[kw["output_spatial_dimensions"][i]]
        x, rhs = _fenced([x, rhs]) if -(-size // step) > IN_LINE else (x, rhs)
        return [_summed(size, step, kw["result_type"], lambda s, n: stablehlo.convolution(
            _take(x, at_x, s, (out - 1) * stride + (n - 1) * rd + 1, step * rd),
            _take(rhs, at_k, s, n, step), **kw))]


def _summed(size: int, step: int, result_type: ir.Type, part) -> ir.Value:
    """The sum of `part(k, n)` over the pieces of `size` in `step`s, in order (`k`: the
    piece's number, an int or a loop's tensor<i32>; `n`: its length): in line up to IN_LINE
    pieces, else the whole pieces in a loop from the sum's identity (-0 for floats: the sum
    is the same, bit for bit) and the rest in line."""
    count, rest = divmod(size, step)
    if count + bool(rest) <= IN_LINE:
        total = part(0, min(step, size))
        for k in range(1, count + bool(rest)):
            total = stablehlo.add(total, part(k, min(step, size - k * step)))
        return total
    t = ir.RankedTensorType(result_type)
    zero = _zero(t.element_type)
    if is_float(t.element_type) or is_complex(t.element_type):
        zero = stablehlo.negate(zero)
    start = stablehlo.broadcast_in_dim(zero, broadcast_dimensions=[], result_type=t)
    (total,) = _loop(0, count, [start], lambda k, acc: [stablehlo.add(acc, part(k, step))])
    return stablehlo.add(total, part(count, rest)) if rest else total


# ---- run-time sized reductions --------------------------------------------------------------

def _product(sizes: list[ir.Value]) -> ir.Value:
    out = stablehlo.constant(np.array(1, np.int64))
    for s in sizes:
        out = stablehlo.multiply(out, s)
    return out


def _length(op: ir.Operation) -> ir.Value | None:
    """The elements one result of `op` reads, as tensor<i64> (run-time sizes included)."""
    from ..expand.expand_reduce_window import window_attributes
    from ..shapes.shape_checks import dimension_size as size
    operands = list(op.operands)
    if op.name == "stablehlo.reduce":
        dims = ir.DenseI64ArrayAttr(op.attributes["dimensions"])
        return _product([size(operands[0], int(d)) for d in dims])
    if op.name == "stablehlo.reduce_window":
        (inputs, _), kw = arguments(op)
        window = window_attributes(kw, ir.RankedTensorType(inputs[0].type).rank)[0]
        return stablehlo.constant(np.array(math.prod(window), np.int64))
    if op.name == "stablehlo.dot_general":
        _, kw = arguments(op)
        return _product([size(operands[0], int(d)) for d in kw["lhs_contracting_dimensions"]])
    if op.name == "stablehlo.scatter":
        updates = operands[len(op.results) + 1]
        return _product([size(updates, d)
                         for d in range(ir.RankedTensorType(updates.type).rank)])
    if op.name == "stablehlo.convolution":
        _, kw = arguments(op)
        kernel = operands[1]
        dims = list(kw["kernel_spatial_dimensions"]) + [kw["kernel_input_feature_dimension"]]
        return _product([size(kernel, int(d)) for d in dims])
    return None


def check_length(op: ir.Operation, limit: int) -> None:
    """Before an op with run-time sized operands that the rules above cannot split: a run-time
    check that one result reads at most `limit` elements (a clean error, not a wrong answer)."""
    from ..shapes.shape_checks import assert_true, describe
    length = _length(op)
    if length is None:
        return
    bound = stablehlo.constant(np.array(limit, np.int64))
    assert_true(stablehlo.compare(length, bound, comparison_direction="LE"),
                f"{describe(op)} reads more than {limit} elements per result, which this "
                f"target computes wrongly, and run-time sized reductions are not split "
                f"(compile with specialize=True to split them per argument shape)", op)
