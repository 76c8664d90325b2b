"""Rewrites more than one target's quirk table uses."""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import binary_body
from ..lib.builders import fusion_barrier, plus_zero_read
from ..lib.expr import element_of, is_float


def _negative_zero(value: ir.Value) -> bool:
    """Whether a splat float constant of -0 defines `value`."""
    if not (isinstance(value, ir.OpResult) and value.owner.name == "stablehlo.constant"):
        return False
    attr = ir.DenseElementsAttr(value.owner.attributes["value"])
    if not attr.is_splat or not is_float(element_of(value)):
        return False
    number = float(ir.FloatAttr(attr.get_splat_value()).value)
    return number == 0 and math.copysign(1, number) < 0


def sum_of_negation(op: ir.Operation):
    """A sum of negated values as the negation of their sum, the init negated too (exact:
    rounding to nearest is symmetric); a float one plus +0 read from memory, so that a sum
    that cancels to 0 is +0 as the spec's, not -0. From a -0 init (where -0 stays the answer
    for all -0 terms, which the negation cannot tell from a cancelling sum) the negated values
    behind a fusion barrier, unfolded."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    producer, combine = x.owner, binary_body(op)
    if (isinstance(producer, ir.Block) or producer.name != "stablehlo.negate"
            or combine is None or combine.name != "stablehlo.add"):
        return None
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    if _negative_zero(init):
        return [stablehlo.reduce([fusion_barrier(x)], [init], dimensions=dimensions,
                                 body=lambda a, b: stablehlo.add(a, b))]
    total = stablehlo.reduce([producer.operands[0]], [stablehlo.negate(init)],
                             dimensions=dimensions, body=lambda a, b: stablehlo.add(a, b))
    negated = stablehlo.negate(total)
    if not is_float(element_of(negated)):
        return [negated]
    return [plus_zero_read(negated)]
