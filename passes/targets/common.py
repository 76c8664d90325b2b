"""Rewrites more than one target's quirk table uses."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import binary_body


def sum_of_negation(op: ir.Operation):
    """A sum of negated values as the negation of their sum, the init negated too (exact:
    rounding to nearest is symmetric)."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    producer, combine = x.owner, binary_body(op)
    if (isinstance(producer, ir.Block) or producer.name != "stablehlo.negate"
            or combine is None or combine.name != "stablehlo.add"):
        return None
    dimensions = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    total = stablehlo.reduce([producer.operands[0]], [stablehlo.negate(init)],
                             dimensions=dimensions, body=lambda a, b: stablehlo.add(a, b))
    return [stablehlo.negate(total)]
