"""StableHLO and shape ops shlo.dialect has no typed builder for yet, built with
`ir.Operation.create` (each helper is small and names its op; they can move to the dialect).

Used by the CHLO decompositions for dynamic shapes (`get_dimension_size`, `shape_of`,
`dynamic_broadcast_in_dim`, `dynamic_iota`, `real_dynamic_slice`, `dynamic_reshape`), for
sorting (`sort` with a comparator region) and loops (`while_`, `dynamic_slice`,
`dynamic_update_slice`), and the few shape-dialect ops an unbounded dynamic broadcast needs.
Also the barriers and fences passes put in front of IREE's fusion (`fence`, `fence_readers`),
the erase of unread ops (`erase_unread`) and the names of the product ops (`PRODUCTS`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo

from ..base import nested_ops

I32 = "i32"
# the matrix products and convolutions in their general form (stablehlo.dot, the legacy dot,
# is not one: users that take it too add it)
PRODUCTS = ("stablehlo.dot_general", "stablehlo.convolution")


def _i64_array(values: Sequence[int]) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _tensor(shape: Sequence[int], element) -> ir.RankedTensorType:
    if isinstance(element, str):
        element = ir.Type.parse(element)
    return ir.RankedTensorType.get(list(shape), element)


def _create(name: str, results, operands, attributes=None, regions: int = 0) -> ir.Operation:
    return ir.Operation.create(name, results=list(results), operands=list(operands),
                               attributes=attributes or {}, regions=regions)


def get_dimension_size(value: ir.Value, dimension: int) -> ir.Value:
    """The size of one dimension as tensor<i32>: `stablehlo.get_dimension_size` of the
    earliest value of the same shape (`shape_source`), or the size a dynamic broadcast was
    given."""
    value = shape_source(value)
    if isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.dynamic_broadcast_in_dim":
        sizes = value.owner.operands[1]                 # the size it was broadcast to
        size = stablehlo.slice(sizes, start_indices=[dimension], limit_indices=[dimension + 1])
        size = stablehlo.reshape(size, result_type=_tensor([], str(
            ir.RankedTensorType(sizes.type).element_type)))
        return size if str(ir.RankedTensorType(size.type).element_type) == I32 else \
            stablehlo.convert(size, result_type=_tensor([], I32))
    i64 = ir.IntegerType.get_signless(64)
    return _create("stablehlo.get_dimension_size", [_tensor([], I32)], [signless(value)],
                   {"dimension": ir.IntegerAttr.get(i64, dimension)}).result


def is_unsigned_dynamic(value: ir.Value) -> bool:
    """A dynamically shaped tensor of unsigned integers."""
    t = ir.RankedTensorType(value.type)
    return (not t.has_static_shape and isinstance(t.element_type, ir.IntegerType)
            and t.element_type.is_unsigned)


def signless(value: ir.Value) -> ir.Value:
    """`value` converted to signless integers of its width when it is an unsigned tensor with a
    dynamic shape, else itself. IREE cannot read the size of such a tensor (it asks the
    value from before its unsigned -> signless type conversion;
    docs/iree_gaps.md#passeslibbuilders); a convert (a no-op once IREE makes both signless)
    gives it one it can."""
    if not is_unsigned_dynamic(value):
        return value
    t = ir.RankedTensorType(value.type)
    return stablehlo.convert(value, result_type=ir.RankedTensorType.get(
        t.shape, ir.IntegerType.get_signless(t.element_type.width)))


def shape_source(value: ir.Value) -> ir.Value:
    """The earliest value whose shape is `value`'s through elementwise ops and element
    lookups (a gather of one element per index). IREE cannot always work out the size of a
    gather's dynamic result (docs/iree_gaps.md#passeslibbuilders), so sizes are read where
    the shape comes from instead."""
    from .elementwise import ELEMENTWISE_OPS
    while isinstance(value, ir.OpResult):
        op = value.owner
        shape = ir.RankedTensorType(value.type).shape
        if op.name in ELEMENTWISE_OPS:
            same = same_shape_operands(op, shape)
        elif op.name == "stablehlo.gather" and _is_element_lookup(op):
            same = [op.operands[1]]
        else:
            same = []
        if not same:
            break
        value = same[0]
    return value


def same_shape_operands(op: ir.Operation, shape: Sequence[int]) -> list[ir.Value]:
    """The operands of `op` that are tensors of exactly `shape` (for an elementwise op: those
    whose sizes are its result's)."""
    return [v for v in op.operands if isinstance(v.type, ir.RankedTensorType)
            and ir.RankedTensorType(v.type).shape == shape]


def _is_element_lookup(gather: ir.Operation) -> bool:
    """A gather whose result has its indices' shape: one element per index."""
    indices = ir.RankedTensorType(gather.operands[1].type)
    return indices.shape == ir.RankedTensorType(gather.results[0].type).shape


def shape_of(value: ir.Value, element: str = "i64") -> ir.Value:
    """The runtime shape of a ranked tensor as a 1-D tensor (pure StableHLO: one
    get_dimension_size per dimension, static sizes as constants)."""
    return size_vector([(value, d) for d in range(ir.RankedTensorType(value.type).rank)],
                       element)


def size_vector(entries: Sequence, element: str = "i64") -> ir.Value:
    """A 1-D tensor of sizes, one per entry: an int is a constant, a (value, dimension) pair
    that dimension's size (a constant when static, else get_dimension_size), an ir.Value a
    size computed already (a 1-element tensor of `element`)."""
    et = ir.Type.parse(element)
    parts = []
    for entry in entries:
        if isinstance(entry, ir.Value):
            parts.append(entry)
            continue
        if isinstance(entry, tuple):
            value, d = entry
            size = ir.RankedTensorType(value.type).shape[d]
            if size == ir.ShapedType.get_dynamic_size():
                dim = get_dimension_size(value, d)
                if element != I32:
                    dim = stablehlo.convert(dim, result_type=_tensor([], et))
                parts.append(stablehlo.reshape(dim, result_type=_tensor([1], et)))
                continue
            entry = size
        parts.append(stablehlo.constant([entry], result_type=_tensor([1], et)))
    if not parts:
        return stablehlo.constant([], result_type=_tensor([0], et))
    return parts[0] if len(parts) == 1 else stablehlo.concatenate(parts, dimension=0)


def size_scalar(value: ir.Value, dimension: int) -> ir.Value:
    """The size of a dimension as a 0-d i64 tensor (a constant when static)."""
    return stablehlo.reshape(size_vector([(value, dimension)]),
                             result_type=_tensor([], ir.IntegerType.get_signless(64)))


def dynamic_broadcast_in_dim(operand: ir.Value, output_dimensions: ir.Value,
                             broadcast_dimensions: Sequence[int], result_type: ir.Type,
                             expanding: Sequence[int] = (),
                             nonexpanding: Sequence[int] = ()) -> ir.Value:
    """`stablehlo.dynamic_broadcast_in_dim` to the runtime shape `output_dimensions`, with the
    operand dimensions known to expand (size 1 to more) or not. An unsigned operand of dynamic
    shape is broadcast as signless integers (`signless`) and converted back."""
    attributes = {"broadcast_dimensions": _i64_array(broadcast_dimensions)}
    if expanding:
        attributes["known_expanding_dimensions"] = _i64_array(expanding)
    if nonexpanding:
        attributes["known_nonexpanding_dimensions"] = _i64_array(nonexpanding)
    signless_operand = signless(operand)
    if signless_operand is operand:
        return _create("stablehlo.dynamic_broadcast_in_dim", [result_type],
                       [operand, output_dimensions], attributes).result
    result = ir.RankedTensorType(result_type)
    out = _create("stablehlo.dynamic_broadcast_in_dim", [ir.RankedTensorType.get(
        result.shape, ir.RankedTensorType(signless_operand.type).element_type)],
        [signless_operand, output_dimensions], attributes).result
    return stablehlo.convert(out, result_type=result_type)


def dynamic_iota(output_shape: ir.Value, iota_dimension: int, result_type: ir.Type) -> ir.Value:
    """`stablehlo.dynamic_iota`."""
    i64 = ir.IntegerType.get_signless(64)
    return _create("stablehlo.dynamic_iota", [result_type], [output_shape],
                   {"iota_dimension": ir.IntegerAttr.get(i64, iota_dimension)}).result


def dynamic_reshape(operand: ir.Value, output_shape: ir.Value, result_type: ir.Type) -> ir.Value:
    """`stablehlo.dynamic_reshape`."""
    return _create("stablehlo.dynamic_reshape", [result_type], [operand, output_shape]).result


def real_dynamic_slice(operand: ir.Value, start: ir.Value, limit: ir.Value, strides: ir.Value,
                       result_type: ir.Type) -> ir.Value:
    """`stablehlo.real_dynamic_slice` with 1-D start/limit/stride tensors."""
    return _create("stablehlo.real_dynamic_slice", [result_type],
                   [operand, start, limit, strides]).result


def dynamic_slice(operand: ir.Value, starts: Sequence[ir.Value], sizes: Sequence[int]) -> ir.Value:
    """`stablehlo.dynamic_slice` with 0-d start indices and static slice sizes."""
    t = ir.RankedTensorType(operand.type)
    return _create("stablehlo.dynamic_slice", [_tensor(sizes, t.element_type)],
                   [operand, *starts], {"slice_sizes": _i64_array(sizes)}).result


def dynamic_update_slice(operand: ir.Value, update: ir.Value,
                         starts: Sequence[ir.Value]) -> ir.Value:
    """`stablehlo.dynamic_update_slice` with 0-d start indices."""
    return _create("stablehlo.dynamic_update_slice", [operand.type],
                   [operand, update, *starts]).result


def reassociation(groups: Sequence[Sequence[int]]) -> ir.ArrayAttr:
    """The `reassociation` attribute of tensor.collapse_shape/expand_shape: groups of dims."""
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in group])
                             for group in groups])


def collapse_shape(operand: ir.Value, groups: Sequence[Sequence[int]],
                   result_type: ir.Type) -> ir.Value:
    """`tensor.collapse_shape`: each group of operand dimensions becomes one dimension (dynamic
    sizes allowed, unlike stablehlo.reshape)."""
    return _create("tensor.collapse_shape", [result_type], [operand],
                   {"reassociation": reassociation(groups)}).result


def index_scalar(value: ir.Value) -> ir.Value:
    """The `index` scalar of a 0-d integer tensor (arith.index_cast, tensor.extract)."""
    cast = index_cast(value, ir.IndexType.get())
    return _create("tensor.extract", [ir.IndexType.get()], [cast]).result


def dim(value: ir.Value, dimension: int) -> ir.Value:
    """`tensor.dim`: the `index` size of a dimension of a ranked tensor."""
    index = _create("arith.constant", [ir.IndexType.get()], [],
                    {"value": ir.IntegerAttr.get(ir.IndexType.get(), dimension)}).result
    return _create("tensor.dim", [ir.IndexType.get()], [value, index]).result


def expand_shape(operand: ir.Value, groups: Sequence[Sequence[int]], result_type: ir.Type,
                 sizes: Sequence[ir.Value]) -> ir.Value:
    """`tensor.expand_shape`: each operand dimension becomes a group; `sizes` are the `index`
    sizes of the result's dynamic dimensions, in order."""
    return _create("tensor.expand_shape", [result_type], [operand, *sizes], {
        "reassociation": reassociation(groups),
        "static_output_shape": _i64_array(ir.RankedTensorType(result_type).shape)}).result


def window_count(value: ir.Value, dimension: int, span: int, stride: int) -> ir.Value:
    """max((size - span) / stride + 1, 0) as an `index`: the windows of `span` elements at
    `stride` along a dimension of `value` (sizes of convolutions and reduce_windows)."""
    def constant(v: int) -> ir.Value:
        return stablehlo.constant(np.array(v, np.int64))
    room = stablehlo.subtract(size_scalar(value, dimension), constant(span))
    count = stablehlo.add(stablehlo.divide(room, constant(stride)), constant(1))
    count = stablehlo.select(stablehlo.compare(room, constant(0), comparison_direction="LT"),
                             constant(0), count)
    return index_scalar(count)


def _mixed_sizes(sizes: Sequence) -> tuple[list[ir.Value], list[int]]:
    """The `index` values among `sizes`, and the static sizes with those marked dynamic."""
    dynamic = [v for v in sizes if isinstance(v, ir.Value)]
    return dynamic, [ir.ShapedType.get_dynamic_size() if isinstance(v, ir.Value) else int(v)
                     for v in sizes]


def extract_slice(source: ir.Value, offsets: Sequence[int], sizes: Sequence,
                  strides: Sequence[int], result_type: ir.Type) -> ir.Value:
    """`tensor.extract_slice` with static offsets and strides; a size is an int or an `index`
    value. Slices sized by one shared value have sizes IREE knows are equal (a
    real_dynamic_slice's size is recomputed from its own limits: IREE then cannot resolve
    the sizes of an elementwise op over several such slices)."""
    dynamic, static = _mixed_sizes(sizes)
    return _create("tensor.extract_slice", [result_type], [source, *dynamic], {
        "static_offsets": _i64_array(offsets), "static_sizes": _i64_array(static),
        "static_strides": _i64_array(strides),
        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 0, len(dynamic), 0])}).result


def insert_slice(source: ir.Value, dest: ir.Value, offsets: Sequence[ir.Value],
                 sizes: Sequence) -> ir.Value:
    """`tensor.insert_slice` of `source` into `dest` at `index` offsets, unit strides; a size
    is an int or an `index` value."""
    dynamic, static = _mixed_sizes(sizes)
    return _create("tensor.insert_slice", [dest.type], [source, dest, *offsets, *dynamic], {
        "static_offsets": _i64_array([ir.ShapedType.get_dynamic_size()] * len(offsets)),
        "static_sizes": _i64_array(static), "static_strides": _i64_array([1] * len(sizes)),
        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 1, len(offsets), len(dynamic),
                                                         0])}).result


def _fill_region(region: ir.Region, arg_types: Sequence[ir.Type], body: Callable) -> None:
    loc = ir.Location.current
    block = region.blocks.append(*arg_types, arg_locs=[loc] * len(arg_types))
    with ir.InsertionPoint(block):
        out = body(*block.arguments)
        values = list(out) if isinstance(out, (list, tuple)) else [out]
        stablehlo.return_(values)


def sort(inputs: Sequence[ir.Value], dimension: int, is_stable: bool,
         comparator: Callable) -> list[ir.Value]:
    """`stablehlo.sort`: `comparator(lhs0, rhs0, lhs1, rhs1, ...)` returns the i1 'lhs first'."""
    i64 = ir.IntegerType.get_signless(64)
    op = _create("stablehlo.sort", [v.type for v in inputs], inputs,
                 {"dimension": ir.IntegerAttr.get(i64, dimension),
                  "is_stable": ir.BoolAttr.get(is_stable)}, regions=1)
    scalars = []
    for v in inputs:
        scalar = _tensor([], ir.RankedTensorType(v.type).element_type)
        scalars += [scalar, scalar]
    _fill_region(op.regions[0], scalars, comparator)
    return list(op.results)


def optimization_barrier(values: Sequence[ir.Value]) -> list[ir.Value]:
    """`stablehlo.optimization_barrier`: the values, unchanged, as a fence for rewrites."""
    return list(_create("stablehlo.optimization_barrier", [v.type for v in values],
                        values).results)


FUSION_BARRIER = "iree_tensor_ext.compute_barrier.start"


def fusion_barrier(value: ir.Value) -> ir.Value:
    """`iree_tensor_ext.compute_barrier.start`: the value, unchanged, which IREE computes in
    dispatches of its own, fused into none of its consumers (an optimization_barrier fences
    too, but IREE then waits on the host for the value before it goes on). Run-time sizes are
    given to it as `tensor.dim`s. Unsigned integers pass as signless ones of their width (IREE
    cannot convert the barrier's unsigned type)."""
    t = ir.RankedTensorType(value.type)
    element = t.element_type.maybe_downcast()
    if isinstance(element, ir.IntegerType) and element.is_unsigned:
        signless = ir.RankedTensorType.get(
            t.shape, ir.IntegerType.get_signless(element.width))
        bits = fusion_barrier(_create("stablehlo.bitcast_convert", [signless], [value]).result)
        return _create("stablehlo.bitcast_convert", [t], [bits]).result
    sizes = [dim(value, d) for d in range(t.rank) if t.is_dynamic_dim(d)]
    return ir.Operation.create(FUSION_BARRIER, results=[t], operands=[value, *sizes]).result


def plus_zero_read(value: ir.Value, zero: ir.Value | None = None) -> ir.Value:
    """value + zero (a 0-d signed zero; None: +0) with the zero read from memory (a fusion
    barrier), which a shader compiler cannot fold away as it folds x + 0.0 (lavapipe's does):
    -0 becomes +0 (zero +0), nothing else changes."""
    t = ir.RankedTensorType(value.type)
    if zero is None:
        zero = stablehlo.constant(0.0, result_type=ir.RankedTensorType.get([], t.element_type))
    return stablehlo.add(value, stablehlo.broadcast_in_dim(
        fusion_barrier(zero), broadcast_dimensions=[], result_type=t))


def fusion_barriers(values: Sequence[ir.Value]) -> list[ir.Value]:
    """`fusion_barrier` of each value (in loops too, unlike `fence`)."""
    return [fusion_barrier(v) for v in values]


def fence_uses(value: ir.Value, barrier: Callable[[ir.Value], ir.Value] = fusion_barrier
               ) -> ir.Value:
    """Make every op that reads `value` now read `barrier(value)` instead, built right after
    `value`'s producer; the barrier's result."""
    return fence_readers([value], value.owner, lambda values: [barrier(values[0])])[0]


def erase_unread(root: ir.Operation, erasable: Callable[[ir.Operation], bool],
                 prefix: str = "stablehlo.") -> None:
    """Erase the ops in `root` named `prefix`... that have results, none of them read, and for
    which `erasable(op)` holds, and so the ones that only erased ops read: one sweep from the
    last op in walk order back (an op comes after the ops it reads and the ops nested in it,
    which go with it)."""
    ops = nested_ops(root, prefix)
    i = len(ops) - 1
    while i >= 0:
        op = ops[i]
        i -= 1
        if op.results and not any(list(r.uses) for r in op.results) and erasable(op):
            i -= len(nested_ops(op, prefix)) - 1    # its nested ops, erased with it
            op.erase()


_CONTROL_FLOW = ("stablehlo.while", "stablehlo.if", "stablehlo.case")


def in_control_flow(op: ir.Operation | None) -> bool:
    """Whether `op` is, or is nested in, a while, if or case op."""
    while op is not None:
        if op.name in _CONTROL_FLOW:
            return True
        op = op.operation.parent
    return False


def fence(values: Sequence[ir.Value]) -> list[ir.Value]:
    """The values, each computed in dispatches of its own: fusion barriers where IREE takes
    them (static shapes, the insertion point outside while, if and case regions: inside a
    complex128 SVD's loops they failed IREE's stream scheduling, "'stream.async.dispatch' op
    : streamable op expected to be in an execution region"), else one optimization_barrier
    (which also makes IREE wait on the host)."""
    if in_control_flow(ir.InsertionPoint.current.block.owner) or \
            not all(ir.RankedTensorType(v.type).has_static_shape for v in values):
        return optimization_barrier(values)
    return [fusion_barrier(v) for v in values]


def fence_readers(values: Sequence[ir.Value], at: ir.Operation,
                  barrier: Callable[[list[ir.Value]], list[ir.Value]] = fence, *,
                  before: bool = False,
                  reads: Callable[[ir.Operation], bool] | None = None) -> list[ir.Value]:
    """Build `barrier(values)` right after `at` (`before`: in front of it),
    at its location, and make the ops that read the values (those for which `reads(op)`
    holds) read the barrier's results instead; the barrier's results."""
    users = [[(use.owner.operation, use.operand_number) for use in value.uses
              if reads is None or reads(use.owner.operation)] for value in values]
    where = ir.InsertionPoint(at) if before else ir.InsertionPoint.after(at)
    with where, at.location:
        fenced = barrier(list(values))
    for each, new in zip(users, fenced):
        for user, index in each:
            user.operands[index] = new
    return fenced


def while_(initial: Sequence[ir.Value], cond: Callable, body: Callable) -> list[ir.Value]:
    """`stablehlo.while`: `cond(*carried)` gives an i1 scalar, `body(*carried)` the next values."""
    types = [v.type for v in initial]
    op = _create("stablehlo.while", types, initial, regions=2)
    _fill_region(op.regions[0], types, cond)
    _fill_region(op.regions[1], types, body)
    return list(op.results)


# --- the shape dialect, only for unbounded dynamic broadcasts ----------------------------------

def shape_shape_of(value: ir.Value) -> ir.Value:
    """`shape.shape_of` as an extent tensor (tensor<?xindex>)."""
    extent = ir.RankedTensorType.get([ir.RankedTensorType(value.type).rank], ir.IndexType.get())
    return _create("shape.shape_of", [extent], [value]).result


def shape_cstr_broadcastable(shapes: Sequence[ir.Value]) -> ir.Value:
    """`shape.cstr_broadcastable`: a witness that the shapes broadcast."""
    return _create("shape.cstr_broadcastable", [ir.Type.parse("!shape.witness")], shapes).result


def index_cast(value: ir.Value, element: ir.Type) -> ir.Value:
    """`arith.index_cast` of an integer or index tensor to the same shape of `element`."""
    t = ir.RankedTensorType(value.type)
    return _create("arith.index_cast", [ir.RankedTensorType.get(list(t.shape), element)],
                   [value]).result


def shape_broadcast(shapes: Sequence[ir.Value], rank: int) -> ir.Value:
    """`shape.broadcast` of extent tensors, as tensor<rank x index>."""
    extent = ir.RankedTensorType.get([rank], ir.IndexType.get())
    return _create("shape.broadcast", [extent], shapes).result


def shape_assuming(witness: ir.Value, result_types: Sequence[ir.Type],
                   body: Callable) -> list[ir.Value]:
    """`shape.assuming %witness { body() ; shape.assuming_yield }`."""
    op = _create("shape.assuming", result_types, [witness], regions=1)
    block = op.regions[0].blocks.append()
    with ir.InsertionPoint(block):
        out = body()
        values = list(out) if isinstance(out, (list, tuple)) else [out]
        _create("shape.assuming_yield", [], values)
    return list(op.results)
