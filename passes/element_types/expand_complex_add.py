"""shlo-expand-complex-add: complex add and subtract as the same op on the real and imaginary parts.

IREE 3.13 rewrites these itself, late (its input preprocessing), and its final CSE then leaves
an `add(real(r), real(r))` of a reshape or transpose `r` that nothing else reads, which its
StableHLO conversion mistranslates (docs/iree_gaps.md#shlo-expand-complex-add). Rewritten here,
the parts reach IREE early enough for its canonicalizer to move them through the reshape.
Ops in reducer bodies are left to IREE.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib.expr import Num, complex_, element_of, imag, is_complex, real
from ..op_rules import RulesPass

# ops whose regions run on whole tensors (function and control-flow bodies)
_TENSOR_BODIES = frozenset({"func.func", "stablehlo.while", "stablehlo.if", "stablehlo.case"})


def _parts(combine):
    def rule(op: ir.Operation):
        if not is_complex(element_of(op.operands[0])):
            return None
        parent = op.parent
        if parent is None or parent.name not in _TENSOR_BODIES:
            return None
        a, b = Num(op.operands[0]), Num(op.operands[1])
        return [complex_(combine(real(a), real(b)), combine(imag(a), imag(b))).value]
    return rule


RULES = {"stablehlo.add": _parts(lambda x, y: x + y),
         "stablehlo.subtract": _parts(lambda x, y: x - y)}


@dataclasses.dataclass
class ExpandComplexAdd(RulesPass):
    """Rewrite complex add/subtract into the op on the real and imaginary parts."""

    NAME = "shlo-expand-complex-add"
    RULES = RULES
