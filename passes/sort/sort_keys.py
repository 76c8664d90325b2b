"""Sorts by a known order of their first operand, as one sort of packed integer keys.

When the comparator orders the first operand alone, by a known order, the sort becomes: an
i64 per element, the key's order-preserving 32-bit image in the high half and its position in
the low half (so ties keep their order: the sort is stable), one sort of those, and a gather
of every operand by the positions in the low halves. shlo-lower-sort's network sorts such
keys with one integer compare a step; and IREE sorts a run-time sized tensor of one operand,
but not of several ('memref.alloca' op expected no unbounded stack allocations: jnp.argsort,
lax.sort of (keys, values) under shape polymorphism), and its sort is not stable.

The comparator is recognised by what it computes: evaluated on every pair of probe keys
(signed zeros, infinities, NaNs of both signs, numbers), it must agree everywhere with
ascending or descending order under one of
- `canonical`: numbers by value, -0 equal to 0, every NaN after +inf and equal to each other
  (jax's sort comparator: NaN and -0 canonicalised, then a TOTALORDER compare);
- `totalorder`: IEEE totalOrder (-NaN < -inf < ... < -0 < 0 < ... < inf < NaN);
- `numbers`: a plain float compare (jax's approx_max_k comparator): numbers by value, -0
  equal to 0, a NaN neither before nor after anything; no order sorts that consistently,
  so NaNs are put last, in either direction;
- integers by their signed or unsigned value.
Keys of at most 32 bits only (floats are compared in f32, which every narrower float
converts to exactly); a comparator reading other operands, with other ops or with constants
other than zeros, infinities and NaN (which the probes include), stays as it is.
"""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.elementwise import compare_scalars, total_order_key
from ..lib import builders as extras
from ..lib.expr import Num, const, element_of, is_float, total_order_int, with_element
from ..expand.index_vectors import reshape

FLOAT_PROBES: tuple[float, ...] = (-math.nan, -math.inf, -2.5, -1.0, -0.0, 0.0, 1.0, 2.5,
                                   math.inf, math.nan)


class _NotRecognised(Exception):
    pass


# ---- orders -----------------------------------------------------------------------------

def _canonical_key(x: float):
    return (1, 0.0) if math.isnan(x) else (0, x + 0.0)       # -0.0 + 0.0 == 0.0


def _number_key(x: float):
    return None if math.isnan(x) else x + 0.0


# key(x), or None for a key that goes neither before nor after any other
ORDERS = {"canonical": _canonical_key, "totalorder": total_order_key, "numbers": _number_key}


def _before(key, a, b, descending: bool) -> bool:
    ka, kb = key(a), key(b)
    if ka is None or kb is None:
        return False
    return ka > kb if descending else ka < kb


def _integer_probes(element: ir.IntegerType) -> tuple[int, ...]:
    width = element.width
    if width == 1:
        return (0, 1)
    if element.is_unsigned:
        return (0, 1, 5, 2 ** width - 1)
    return (-2 ** (width - 1), -3, -1, 0, 1, 5, 2 ** (width - 1) - 1)


# ---- evaluating the comparator on scalars ------------------------------------------------

def _constant(value: ir.Value):
    owner = value.owner
    if not (isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == "stablehlo.constant"):
        raise _NotRecognised
    attr = ir.DenseElementsAttr(owner.attributes["value"])
    if not attr.is_splat:
        raise _NotRecognised
    scalar = attr.get_splat_value()
    element = element_of(value)
    if is_float(element):
        number = float(ir.FloatAttr(scalar).value)
    elif ir.IntegerType(element).width == 1:
        return bool(ir.BoolAttr(scalar).value)
    else:
        number = int(ir.IntegerAttr(scalar).value)
    if not (number == 0 or math.isnan(number) or math.isinf(number)):
        raise _NotRecognised        # the probes decide a comparator only for these constants
    return number


def _evaluate(block: ir.Block, a, b) -> bool:
    """The comparator's result for the first operand's keys `a` and `b` (Python scalars)."""
    env = {block.arguments[0]: a, block.arguments[1]: b}

    def get(v):
        return env[v] if v in env else _constant(v)
    for op in block.operations:
        name = op.name
        if name == "stablehlo.return":
            return bool(get(op.operands[0]))
        ins = [get(v) for v in op.operands]
        if name == "stablehlo.compare":
            out = compare_scalars(op, *ins)
        elif name == "stablehlo.select":
            out = ins[1] if ins[0] else ins[2]
        elif name == "stablehlo.and":
            out = ins[0] and ins[1]
        elif name == "stablehlo.or":
            out = ins[0] or ins[1]
        elif name == "stablehlo.xor":
            out = ins[0] != ins[1]
        elif name == "stablehlo.not" and isinstance(ins[0], bool):
            out = not ins[0]
        elif name == "stablehlo.constant":
            out = _constant(op.result)
        else:
            raise _NotRecognised
        env[op.result] = out
    raise _NotRecognised


def recognise(sort: ir.Operation, any_width: bool = False) -> tuple[str, bool] | None:
    """(order, descending) of a comparator that orders the first operand alone by one of
    ORDERS (floats) or by value (integers), else None; keys of at most 32 bits unless
    `any_width`."""
    block = sort.regions[0].blocks[0]
    if any(len(list(arg.uses)) for arg in list(block.arguments)[2:]):
        return None
    element = element_of(sort.operands[0]).maybe_downcast()
    if is_float(element):
        if element.width > 32:
            return None
        probes, orders = FLOAT_PROBES, ORDERS
    elif isinstance(element, ir.IntegerType) and (element.width <= 32 or any_width):
        probes, orders = _integer_probes(element), {"value": lambda x: x}
    else:
        return None
    try:
        table = {(a, b): _evaluate(block, a, b) for a in probes for b in probes}
    except (_NotRecognised, TypeError, KeyError, ValueError):
        return None
    for name, key in orders.items():
        for descending in (False, True):
            if all(got == _before(key, a, b, descending) for (a, b), got in table.items()):
                return name, descending
    return None


# ---- the packed sort ---------------------------------------------------------------------

def key32(keys: ir.Value, order: str, descending: bool) -> ir.Value:
    """An i32 per key whose signed order is the sort's order."""
    i32 = ir.IntegerType.get_signless(32)
    element = element_of(keys).maybe_downcast()
    if is_float(element):
        x = Num(keys).to("f32").value
        nan = stablehlo.compare(x, x, comparison_direction="NE")
        if order in ("canonical", "numbers"):
            zero = const(0.0, x)
            x = stablehlo.select(stablehlo.compare(x, zero, comparison_direction="EQ"), zero, x)
        if order == "canonical":
            x = stablehlo.select(nan, const(math.nan, x), x)
        key = total_order_int(x).value
        if order == "numbers":     # NaN last, whichever the direction
            key = stablehlo.select(nan, const(-2 ** 31 if descending else 2 ** 31 - 1, key), key)
    elif element.width == 32 and element.is_unsigned:
        # u32: the bits as i32 with the top bit flipped, so the signed order is the unsigned one
        bits = stablehlo.bitcast_convert(keys, result_type=with_element(keys.type, i32))
        key = stablehlo.xor(bits, const(-2 ** 31, bits))
    elif element.width == 32:
        key = keys
    else:
        key = stablehlo.convert(keys, result_type=with_element(keys.type, i32))    # by value: exact
    return stablehlo.not_(key) if descending else key


def packed_sort(sort: ir.Operation, order: str, descending: bool
                ) -> tuple[list[ir.Value], ir.Operation]:
    """The sort's results: one sort of (key32 << 32 | position) along its dimension, then
    every operand gathered by the positions (shapes of any kind: sizes are read at run time);
    and that sort of packed keys (ascending, no two equal)."""
    keys = sort.operands[0]
    t = ir.RankedTensorType(keys.type)
    rank = t.rank
    dimension = ir.IntegerAttr(sort.attributes["dimension"]).value % rank
    i64 = ir.IntegerType.get_signless(64)
    i32 = ir.IntegerType.get_signless(32)
    wide = with_element(keys.type, i64)
    key = stablehlo.convert(key32(keys, order, descending), result_type=wide)
    position = (stablehlo.iota(iota_dimension=dimension, result_type=wide)
                if t.has_static_shape else extras.dynamic_iota(extras.shape_of(keys), dimension,
                                                               wide))
    packed = stablehlo.or_(stablehlo.shift_left(key, const(32, key)), position)
    ordered = stablehlo.sort([packed], dimension=dimension, is_stable=False,
                             comparator=lambda a, b: stablehlo.compare(
                                 a, b, comparison_direction="LT"))
    ordered = ordered[0] if isinstance(ordered, (list, tuple)) else ordered
    indices = stablehlo.convert(stablehlo.and_(ordered, const(2 ** 32 - 1, ordered)),
                                result_type=with_element(keys.type, i32))
    return ([Num(indices).to(element_of(operand)).value if is_iota_along(operand, dimension)
             else take_along(operand, indices, dimension) for operand in sort.operands],
            ordered.owner.operation)


def is_iota_along(value: ir.Value, dimension: int) -> bool:
    """Whether `value` is an integer iota along `dimension` (each element its position)."""
    owner = value.owner
    return (isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == "stablehlo.iota"
            and ir.IntegerAttr(owner.attributes["iota_dimension"]).value == dimension
            and isinstance(ir.RankedTensorType(value.type).element_type.maybe_downcast(),
                           ir.IntegerType))


def take_along(operand: ir.Value, indices: ir.Value, dimension: int) -> ir.Value:
    """operand[..., indices[..., j, ...], ...] along `dimension` (numpy's take_along_axis):
    `indices` has the operand's shape but along `dimension`, and so has the result.

    Static shapes gather the flattened operand at one computed offset per element, which IREE
    fuses into the gather; a gather with batching dimensions becomes concatenated iotas there
    (shlo-canonicalize-gather), a few dispatches more."""
    t = ir.RankedTensorType(operand.type)
    rank = t.rank
    if t.has_static_shape and ir.RankedTensorType(indices.type).has_static_shape:
        return _take_flat(operand, indices, dimension)
    batch = [d for d in range(rank) if d != dimension]
    return stablehlo.gather(
        operand, indices, offset_dims=[], collapsed_slice_dims=[dimension],
        operand_batching_dims=batch, start_indices_batching_dims=batch,
        start_index_map=[dimension], index_vector_dim=rank, slice_sizes=[1] * rank,
        result_type=with_element(indices.type, element_of(operand)))


def _take_flat(operand: ir.Value, indices: ir.Value, dimension: int) -> ir.Value:
    """take_along for static shapes: offset = sum of (index along d) * (row-major stride of d)."""
    shape = list(ir.RankedTensorType(operand.type).shape)
    size = math.prod(shape)
    offset_type = ir.IntegerType.get_signless(32 if size < 2 ** 31 else 64)
    offset_tensor = with_element(indices.type, offset_type)
    offset = None
    for d in range(len(shape)):
        along = (Num(indices).to(offset_type).value if d == dimension
                 else stablehlo.iota(iota_dimension=d, result_type=offset_tensor))
        stride = math.prod(shape[d + 1:])
        if stride != 1:
            along = stablehlo.multiply(along, const(stride, along))
        offset = along if offset is None else stablehlo.add(offset, along)
    return stablehlo.gather(
        reshape(operand, [size]), offset, offset_dims=[], collapsed_slice_dims=[0],
        start_index_map=[0], index_vector_dim=len(shape), slice_sizes=[1],
        result_type=with_element(indices.type, element_of(operand)))
