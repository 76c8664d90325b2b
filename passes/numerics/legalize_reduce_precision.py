"""shlo-legalize-reduce-precision: NaN through `reduce_precision` with no mantissa bits.

The spec's interpreter keeps a NaN a NaN when the format has mantissa bits, and turns it into
+inf (whatever the NaN's sign) when it has none: such a format (e5m0) has no NaN.
IREE keeps the NaN in both cases (docs/iree_gaps.md#shlo-legalize-reduce-precision). The
rewrite keeps IREE's reduce_precision for every other value and selects +inf for NaN inputs
when mantissa_bits is 0 (for types with an infinity). Formats with mantissa bits stay IREE's
own: they match the interpreter.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib.expr import Num, float_info, is_nan, select
from ..op_rules import CANONICAL, RulesPass


def _nan_to_inf(op: ir.Operation):
    if CANONICAL in op.attributes or ir.IntegerAttr(op.attributes["mantissa_bits"]).value != 0:
        return None
    x = Num(op.operands[0])
    info = float_info(x.element)
    if not info.has_inf:
        return None
    rounded = stablehlo.reduce_precision(
        x.value, exponent_bits=ir.IntegerAttr(op.attributes["exponent_bits"]).value,
        mantissa_bits=0)
    rounded.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [select(is_nan(x), x.like(math.inf), Num(rounded)).value]


@dataclasses.dataclass
class LegalizeReducePrecision(RulesPass):
    """Rewrite reduce_precision to a format without mantissa bits so NaN becomes +inf."""

    NAME = "shlo-legalize-reduce-precision"
    RULES = {"stablehlo.reduce_precision": _nan_to_inf}
