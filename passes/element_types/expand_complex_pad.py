"""shlo-expand-complex-pad: a complex stablehlo.pad as the pads of its real and imaginary parts;
a pad of an empty operand (of any type) as a broadcast of its padding value.

IREE's compiler crashes (ending the process) on a complex pad without interior padding, and
so on a complex reduce_window with padding, whose lowering pads, and on jnp.sort of complex
values (shlo-lower-sort pads to a power of two). The parts pad as real tensors and join with
stablehlo.complex; the result is the same tensor. The parts of a complex value converted from
f16/bf16 are read behind fusion barriers: IREE fails to compile their pads on Vulkan with the
f16 -> f32 convert fused in.

(A pad of a pad by another padding value: shlo-merge-edge-pads.)

A pad of an operand with no elements holds only the padding value. IREE hoists it, with what
computes the padding value, into a global initializer and then fails to compile (also without
shlo's passes). With a static result it becomes the broadcast it is.
Evidence: docs/iree_gaps.md#shlo-expand-complex-pad.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib import builders as extras
from ..lib.expr import Num, complex_, element_of, imag, is_complex, is_narrow_float, real
from ..op_rules import RulesPass


def _pad(op: ir.Operation):
    x, result = ir.RankedTensorType(op.operands[0].type), ir.RankedTensorType(op.results[0].type)
    if x.has_static_shape and 0 in x.shape and result.has_static_shape:
        return [stablehlo.broadcast_in_dim(op.operands[1], broadcast_dimensions=[],
                                           result_type=result)]
    if not is_complex(element_of(op.operands[0])):
        return None
    (x, value), kw = arguments(op)
    kw.pop("result_type", None)
    return [pad_by_parts(x, value, **kw)]


def pad_by_parts(x: ir.Value, value: ir.Value, **padding) -> ir.Value:
    """A complex pad as the complex of the pads of the real and imaginary parts."""
    narrow = not isinstance(x.owner, ir.Block) and x.owner.name == "stablehlo.convert" and \
        is_narrow_float(element_of(x.owner.operands[0]))
    inputs = [real(Num(x)).value, imag(Num(x)).value]
    if narrow:      # (Vulkan failed on the f16 -> f32 convert fused into the part's pad)
        inputs = extras.fence(inputs)
    parts = [stablehlo.pad(v, part(Num(value)).value, **padding)
             for v, part in zip(inputs, (real, imag))]
    return complex_(Num(parts[0]), Num(parts[1])).value


@dataclasses.dataclass
class ExpandComplexPad(RulesPass):
    """Pad the real and imaginary parts of a complex tensor separately; a pad of an empty
    tensor is a broadcast of its padding value."""

    NAME = "shlo-expand-complex-pad"
    RULES = {"stablehlo.pad": _pad}
