"""shlo-guard-square-sums: a float sum of squares reads each square through maximum(x * x, 0),
which is the square itself, so that IREE vectorizes it.

IREE fuses the multiply into the sum and takes the pair for a contraction. It compiles that
contraction to scalar code (`vfmadd231ss`, one element at a time), about 3x slower
(docs/iree_gaps.md#shlo-guard-square-sums). Sums of squares are in norms, RMSNorm and squared
errors. The
guard changes no value: a square is never negative, maximum(+0, 0) is +0, and maximum keeps a
NaN. Products of two different values are left alone: they are not always >= 0, and read
twice the memory, which hides most of the loss. So are squares of values computed from
another reduce's result, such as a variance's x minus its mean: IREE fuses the two
reductions and vectorizes them already, and the guard made those slower.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import binary_body, defined_by
from ..lib.expr import const, element_of, is_float
from ..lib.elementwise import ELEMENTWISE_OPS
from ..op_rules import RulesPass

_THROUGH = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape"})


def _square_of(value: ir.Value) -> bool:
    product = defined_by(value, "stablehlo.multiply")
    return product is not None and product.operands[0] == product.operands[1]


def _follows_a_reduce(value: ir.Value) -> bool:
    """Whether `value` is computed, through elementwise ops and broadcasts, from a reduce's
    result (a variance: the square of x minus its mean)."""
    seen, stack = set(), [value]
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, (ir.Operation, ir.OpView)):
            continue
        op = owner.operation
        if op.name == "stablehlo.reduce":
            return True
        if op not in seen and (op.name in ELEMENTWISE_OPS or op.name in _THROUGH):
            seen.add(op)
            stack.extend(op.operands)
    return False


def _reduce(op: ir.Operation):
    if len(op.operands) != 2 or not is_float(element_of(op.operands[0])):
        return None
    combine = binary_body(op)
    x, init = op.operands
    if combine is None or combine.name != "stablehlo.add" or not _square_of(x):
        return None
    if _follows_a_reduce(x.owner.operands[0]):
        return None
    guarded = stablehlo.maximum(x, const(0.0, x))
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    return [stablehlo.reduce([guarded], [init], dimensions=dims, body=stablehlo.add)]


@dataclasses.dataclass
class GuardSquareSums(RulesPass):
    """Read a float sum's squares through maximum(x * x, 0), so that IREE does not compile the
    pair as a (scalar) contraction."""

    NAME = "shlo-guard-square-sums"
    RULES = {"stablehlo.reduce": _reduce}
