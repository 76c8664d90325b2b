"""shlo-expand-complex-pad: a complex stablehlo.pad as the pads of its real and imaginary parts.

IREE 3.13's compiler crashes (a segmentation fault, which ends the process) on a complex pad
without interior padding (measured: tensor<4x6xcomplex<f32>> padded low [1, 0], high [0, 2]),
and so on a complex reduce_window with padding, whose lowering pads, and on jnp.sort of
complex values (shlo-lower-sort pads to a power of two). The parts pad as real tensors and
join with stablehlo.complex; the result is the same tensor.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib.expr import Num, complex_, element_of, imag, is_complex, real
from ..op_rules import RulesPass


def _pad(op: ir.Operation):
    if not is_complex(element_of(op.operands[0])):
        return None
    (x, value), kw = arguments(op)
    kw.pop("result_type", None)
    x, value = Num(x), Num(value)
    parts = [stablehlo.pad(part(x).value, part(value).value, **kw) for part in (real, imag)]
    return [complex_(Num(parts[0]), Num(parts[1])).value]


@dataclasses.dataclass
class ExpandComplexPad(RulesPass):
    """Pad the real and imaginary parts of a complex tensor separately."""

    NAME = "shlo-expand-complex-pad"
    RULES = {"stablehlo.pad": _pad}
