"""shlo-reduce-before-broadcast: a reduce over dimensions along which its operand does not vary
(a broadcast_in_dim adds them, to the operand or to every operand of the elementwise op that
computes it) reduces the smaller value without them.

IREE 3.13's cpu compile failed on such reductions, also without shlo's passes: the sum of a
broadcast of an outer product ("'vector.contract' op invalid accumulator/result vector
shape", shlo-fuzz seed 159 program 567), and `jnp.sum(a[:, None, None, None] * b[None,
None])` with a new dimension of 7 ("exceeded stack allocation limit")
(docs/iree_gaps.md#shlo-reduce-before-broadcast). They also did that many times the work.

A reduce by maximum, minimum, and or or reads each value as often as it likes: the smaller
reduce is the same. A sum of n copies is n times the sum of one: the smaller reduce's result
times n, where the init is the sum's identity (exact for integers, which wrap alike; for
floats one rounding of the product where the copies' sum rounded at each step, which the spec
leaves to the implementation). Other bodies, sums of complex or boolean values or of more
copies than the element type holds exactly (f16: 2048), variadic reduces and dynamic shapes
are left alone. Splat constants among the elementwise op's operands are made of the smaller
shape.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from shlo.dialect.types import element_dtype
from ..base import binary_body, is_splat_constant
from ..custom_calls.cumulative_window import is_identity
from ..expand.index_vectors import is_static, shape_of
from ..lib.elementwise import ELEMENTWISE_OPS
from ..lib.expr import attributes, is_float
from ..op_rules import RulesPass
from ..shapes.refine_fold import ints
from .dot_before_broadcast import broadcast_free_dims, narrowed

# reducers for which a value read several times changes nothing
IDEMPOTENT = ("stablehlo.maximum", "stablehlo.minimum", "stablehlo.and", "stablehlo.or")


def _leaves(value: ir.Value) -> list[ir.Value] | None:
    """The broadcasts and splat constants `value` is (one) or an elementwise op of one
    result computes it from, else None."""
    if not isinstance(value, ir.OpResult):
        return None
    op = value.owner
    if op.name == "stablehlo.broadcast_in_dim":
        return [value]
    if op.name not in ELEMENTWISE_OPS or len(op.results) != 1:
        return None
    leaves = list(op.operands)
    if not all(isinstance(v, ir.OpResult) and (
            v.owner.name == "stablehlo.broadcast_in_dim" or is_splat_constant(v.owner)
            and not isinstance(ir.RankedTensorType(v.type).element_type, ir.ComplexType))
            for v in leaves):
        return None
    return leaves


def _constant_dims(leaves: list[ir.Value], dims: list[int]) -> set[int]:
    """The dimensions among `dims` along which no leaf varies."""
    common = set(dims)
    for leaf in leaves:
        if leaf.owner.name == "stablehlo.broadcast_in_dim":
            common &= broadcast_free_dims(leaf, dims)
    return common


def _narrowed_leaf(leaf: ir.Value, position: dict[int, int]) -> ir.Value:
    if leaf.owner.name == "stablehlo.broadcast_in_dim":
        return narrowed(leaf, position)
    t = ir.RankedTensorType(leaf.type)
    splat = ir.DenseElementsAttr(leaf.owner.attributes["value"]).get_splat_value()
    shape = [shape_of(leaf)[d] for d in position]
    return stablehlo.constant(ir.DenseElementsAttr.get_splat(
        ir.RankedTensorType.get(shape, t.element_type), splat), result_type=None)


def reduce_before_broadcast(op: ir.Operation):
    if len(op.operands) != 2 or not is_static(op.operands[0], op.results[0]):
        return None
    x, init = op.operands
    combine = binary_body(op)
    element = ir.RankedTensorType(x.type).element_type
    summable = is_float(element) or isinstance(element, ir.IntegerType) and \
        ir.IntegerType(element).width > 1
    if combine is None or not (combine.name in IDEMPOTENT or combine.name == "stablehlo.add"
                               and summable and is_identity(init, "stablehlo.add")):
        return None
    dims = list(ints(op, "dimensions"))
    leaves = _leaves(x)
    if leaves is None:
        return None
    dropped = _constant_dims(leaves, dims)
    if not dropped or combine.name == "stablehlo.add" and _count(op, dropped) is None:
        return None
    shape = shape_of(x)
    kept = [d for d in range(len(shape)) if d not in dropped]
    position = {d: i for i, d in enumerate(kept)}
    smaller = [_narrowed_leaf(v, position) for v in leaves]
    small_type = ir.RankedTensorType.get([shape[d] for d in kept], element)
    if x.owner.name == "stablehlo.broadcast_in_dim":
        small = smaller[0]
    else:
        small = ir.Operation.create(x.owner.name, results=[small_type], operands=smaller,
                                    attributes=attributes(x.owner)).result
    (_, inits), kw = arguments(op)
    reduced = stablehlo.reduce([small], list(inits), body=kw["body"],
                               dimensions=[position[d] for d in dims if d not in dropped])
    result = reduced[0] if isinstance(reduced, (list, tuple)) else reduced
    if combine.name == "stablehlo.add":
        t = ir.RankedTensorType(result.type)
        n = stablehlo.constant(np.full(t.shape, _count(op, dropped), element_dtype(
            t.element_type)), result_type=t)
        result = stablehlo.multiply(result, n)
    return [result]


def _count(reduce: ir.Operation, dropped: set[int]):
    """How many copies of each value the dropped dimensions hold, as a number of the reduce's
    (integer or float) element type (integers modulo 2^width: their products wrap alike), or
    None where a float type cannot hold it exactly (f16 past 2048)."""
    element = ir.RankedTensorType(reduce.results[0].type).element_type
    count = math.prod(shape_of(reduce.operands[0])[d] for d in dropped)
    if isinstance(element, ir.IntegerType):
        width = ir.IntegerType(element).width
        count %= 1 << width
        if not ir.IntegerType(element).is_unsigned and count >= 1 << (width - 1):
            count -= 1 << width
        return count
    return count if float(np.asarray(count, element_dtype(element))) == count else None


@dataclasses.dataclass
class ReduceBeforeBroadcast(RulesPass):
    """Reduce the smaller value where a broadcast only repeats the reduced values."""

    NAME = "shlo-reduce-before-broadcast"
    RULES = {"stablehlo.reduce": reduce_before_broadcast}
