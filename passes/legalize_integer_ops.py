"""shlo-legalize-integer-ops: rewrite the integer ops IREE 3.13 rejects or computes wrongly into
forms it gets right, with the spec's semantics.

* `add` of booleans (i1) is logical OR in the spec; IREE computes XOR (true + true = false):
  it becomes stablehlo.or;
* `reverse` of unsigned integers fails to compile (IREE's linalg.generic keeps the `ui`
  type): reversing only moves bits, so it runs on the signless type of the same width
  between two bitcast_converts.

(Unsigned reduce_window, e.g. cumsum of ui32, is fixed by shlo-expand-reduce-window.)
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..dialect import stablehlo
from .chlo_expr import element_of, with_element
from .op_rules import RulesPass


def _is_bool(value: ir.Value) -> bool:
    t = element_of(value).maybe_downcast()
    return isinstance(t, ir.IntegerType) and t.width == 1


def _unsigned(value: ir.Value):
    t = element_of(value).maybe_downcast()
    return t if isinstance(t, ir.IntegerType) and t.is_unsigned else None


def _bool_add(op: ir.Operation):
    lhs, rhs = op.operands
    if not _is_bool(lhs):
        return None
    return [stablehlo.or_(lhs, rhs)]


def _unsigned_reverse(op: ir.Operation):
    x = op.operands[0]
    t = _unsigned(x)
    if t is None:
        return None
    signless = stablehlo.bitcast_convert(
        x, result_type=with_element(x.type, ir.IntegerType.get_signless(t.width)))
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    reversed_ = stablehlo.reverse(signless, dimensions=dims)
    return [stablehlo.bitcast_convert(reversed_, result_type=with_element(x.type, t))]


@dataclasses.dataclass
class LegalizeIntegerOps(RulesPass):
    """Rewrite boolean add to or, and unsigned reverse to a signless reverse."""

    NAME = "shlo-legalize-integer-ops"
    RULES = {
        "stablehlo.add": _bool_add,
        "stablehlo.reverse": _unsigned_reverse,
    }
