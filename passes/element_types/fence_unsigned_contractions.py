"""shlo-fence-unsigned-contractions: a dot_general or convolution operand converted from an
8-, 16- or 32-bit unsigned integer is computed behind a fusion barrier.

IREE 3.13 fuses such a convert into the contraction and extends the narrow integer as a
signed one: `x.astype(f32) @ w` of a uint8 x reads 245 as -11 (489 of 512 results of a
16x64 by 64x32 product wrong, silently, on cpu and vulkan, also without shlo's passes; ui16
alike, to f16, f32, f64 and i32; ui32 to i64, every result of a 300x1024 product on cpu;
found by shlo-fuzz, seed 42 program 76, seed 64 program 1466;
docs/iree_gaps.md#shlo-fence-unsigned-contractions). Computed in a dispatch of its own the
convert is right, and the contraction reads its finished result. The operand may reach the
contraction through views of the convert (reshape, transpose, broadcast, slice): the fenced
value is the operand itself. Static shapes get a fusion barrier, others an
optimization_barrier.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras

CONTRACTIONS = ("stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution")
VIEWS = ("stablehlo.reshape", "stablehlo.transpose", "stablehlo.broadcast_in_dim",
         "stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.reverse")


def _narrow_unsigned(t: ir.Type) -> bool:
    element = ir.ShapedType(t).element_type.maybe_downcast()
    return isinstance(element, ir.IntegerType) and element.is_unsigned and \
        element.width in (8, 16, 32)


def from_narrow_unsigned(value: ir.Value) -> bool:
    """Whether `value` is a convert of an 8-, 16- or 32-bit unsigned integer, through views."""
    while isinstance(value, ir.OpResult):
        op = value.owner
        if op.name == "stablehlo.convert":
            return _narrow_unsigned(op.operands[0].type) and \
                not _narrow_unsigned(op.results[0].type)
        if op.name not in VIEWS:
            return False
        value = op.operands[0]
    return False


def _barrier(value: ir.Value) -> ir.Value:
    if ir.RankedTensorType(value.type).has_static_shape:
        return extras.fusion_barrier(value)
    return extras.optimization_barrier([value])[0]


@dataclasses.dataclass
class FenceUnsignedContractions(Pass):
    """Read each contraction operand converted from ui8/ui16/ui32 through a barrier."""

    NAME = "shlo-fence-unsigned-contractions"

    def run(self, op: ir.Operation) -> None:
        for contraction in nested_ops(op, "stablehlo."):
            if contraction.name not in CONTRACTIONS:
                continue
            fenced: dict[ir.Value, ir.Value] = {}
            for index in (0, 1):
                value = contraction.operands[index]
                if not from_narrow_unsigned(value):
                    continue
                if value not in fenced:
                    with ir.InsertionPoint(contraction), contraction.location:
                        fenced[value] = _barrier(value)
                contraction.operands[index] = fenced[value]
