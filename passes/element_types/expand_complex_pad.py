"""shlo-expand-complex-pad: a complex stablehlo.pad as the pads of its real and imaginary parts;
a pad of an empty operand (of any type) as a broadcast of its padding value.

IREE's compiler crashes (ending the process) on a complex pad without interior padding, and
so on a complex reduce_window with padding, whose lowering pads, and on jnp.sort of complex
values (shlo-lower-sort pads to a power of two). The parts pad as real tensors and join with
stablehlo.complex; the result is the same tensor. The parts of a complex value converted from
f16/bf16 are read behind fusion barriers: IREE fails to compile their pads on Vulkan with the
f16 -> f32 convert fused in.

A pad of a pad by another padding value, of a computed value (`negate(x)` padded by 1, then
by 0), failed to compile on cpu and vulkan, also without shlo's passes ("write affecting
operations on global resources are restricted to workgroup distributed contexts"; fuzz
regression complex_convolution_padded_vulkan): the inner pad is computed behind a fusion
barrier. So is a padded reduce_window of one-element windows, which IREE lowers as a pad (fuzz
seed 102 program 363: a pad of a dilated max window of size 1 over `min(x, y)`).

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
from ..expand.expand_reduce_window import window_attributes
from ..lib import builders as extras
from ..lib.expr import Num, complex_, element_of, imag, is_complex, is_narrow_float, real
from ..op_rules import RulesPass


def _lowered_as_pad(op: ir.Operation) -> bool:
    """Whether IREE lowers `op` as a pad of its first operand by its second: a pad, or a
    reduce_window of one input whose windows hold one element, padded or base dilated."""
    if op.name == "stablehlo.pad":
        return True
    if op.name != "stablehlo.reduce_window" or len(op.operands) != 2:
        return False
    _, kw = arguments(op)
    window, _, base, _, padding = window_attributes(
        kw, ir.RankedTensorType(op.operands[0].type).rank)
    return all(w == 1 for w in window) and (
        any(b != 1 for b in base) or any(p != [0, 0] for p in padding))


def _padded_pad(op: ir.Operation) -> bool:
    """Whether the pad's operand is a pad by another padding value (or what IREE lowers as
    one), of a computed or a complex value (whose parts are computed)."""
    inner = op.operands[0].owner
    return (not isinstance(inner, ir.Block) and _lowered_as_pad(inner)
            and inner.operands[1] != op.operands[1]
            and (not isinstance(inner.operands[0].owner, ir.Block)
                 or is_complex(element_of(inner.operands[0]))))


def _pad(op: ir.Operation):
    if _padded_pad(op):
        (x, value), kw = arguments(op)
        kw.pop("result_type", None)
        return [stablehlo.pad(extras.fence([x])[0], value, **kw)]
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
