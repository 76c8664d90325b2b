"""shlo-expand-complex-minmax: stablehlo.maximum/minimum on complex numbers, as the spec says.

The spec orders complex numbers lexicographically (real part, then imaginary part); IREE
picks the wrong element (docs/iree_gaps.md#shlo-expand-complex-minmax). The rewrite
compares the parts and selects each part separately (a select on complex values does not
compile for Vulkan).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib.expr import Num, complex_, element_of, imag, is_complex, real, select
from ..op_rules import RulesPass


def _pick(first_wins_strictly: bool):
    def rule(op: ir.Operation):
        if not is_complex(element_of(op.operands[0])):
            return None
        a, b = Num(op.operands[0]), Num(op.operands[1])
        ra, rb, ia, ib = real(a), real(b), imag(a), imag(b)
        if first_wins_strictly:             # maximum: a when a > b
            take_a = (ra > rb) | (ra.eq(rb) & (ia > ib))
        else:                               # minimum: a when a < b
            take_a = (ra < rb) | (ra.eq(rb) & (ia < ib))
        return [complex_(select(take_a, ra, rb), select(take_a, ia, ib)).value]
    return rule


RULES = {"stablehlo.maximum": _pick(True), "stablehlo.minimum": _pick(False)}


@dataclasses.dataclass
class ExpandComplexMinMax(RulesPass):
    """Rewrite complex maximum/minimum into the spec's lexicographic selection."""

    NAME = "shlo-expand-complex-minmax"
    RULES = RULES
