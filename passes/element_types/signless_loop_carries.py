"""shlo-signless-loop-carries: a while loop carries the unsigned integer tensors that a
scatter in its body updates as signless integers of their width.

IREE 3.13 fails to compile a `stablehlo.while` whose body scatters into a carried ui8, ui16,
ui32 or ui64 tensor ("failed to legalize unresolved materialization from
('tensor<5x8xi8>') to ('tensor<5x8xui8>') that remained live after conversion", on cpu and
vulkan, also without shlo's passes): jax's `fori_loop` of `c.at[i].add(x[i])` on uint8, and
shlo-split-long-reduce's chunk loops of an unsigned scatter on Vulkan (a `.at[].add` of
uint8[301, 603]; docs/iree_gaps.md#shlo-signless-loop-carries). Carried as signless integers,
with a bitcast_convert (a no-op once IREE makes every integer signless) where the loop
starts, in its regions and after it, the loop compiles.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, nested_ops
from ..lib.expr import with_element


def _signless(t: ir.Type) -> ir.Type | None:
    """The signless twin of an unsigned integer ranked tensor type, else None."""
    if not isinstance(t.maybe_downcast(), ir.RankedTensorType):
        return None
    element = ir.RankedTensorType(t).element_type.maybe_downcast()
    if not (isinstance(element, ir.IntegerType) and element.is_unsigned):
        return None
    return with_element(t, ir.IntegerType.get_signless(element.width))


def _scattered_carries(loop: ir.Operation) -> list[int]:
    """The places of the loop's unsigned carried values that a scatter of its body updates."""
    body = loop.regions[1].blocks[0]
    scattered = {operand.arg_number
                 for scatter in nested_ops(loop, "stablehlo.scatter")
                 for operand in scatter.operands
                 if isinstance(operand, ir.BlockArgument) and operand.owner == body}
    return [place for place in sorted(scattered)
            if _signless(body.arguments[place].type) is not None]


def _bitcast(value: ir.Value, t: ir.Type) -> ir.Value:
    return stablehlo.bitcast_convert(value, result_type=t)


def _carry_signless(loop: ir.Operation, place: int) -> None:
    unsigned = loop.results[place].type
    signless = _signless(unsigned)
    with ir.InsertionPoint(loop), loop.location:
        loop.operands[place] = _bitcast(loop.operands[place], signless)
    for region in loop.regions:
        block = region.blocks[0]
        argument = block.arguments[place]
        argument.set_type(signless)
        with ir.InsertionPoint.at_block_begin(block), loop.location:
            unsigned_argument = _bitcast(argument, unsigned)
        argument.replace_all_uses_except(unsigned_argument, unsigned_argument.owner.operation)
    terminator = list(loop.regions[1].blocks[0].operations)[-1]
    with ir.InsertionPoint(terminator), loop.location:
        terminator.operands[place] = _bitcast(terminator.operands[place], signless)
    result = loop.results[place]
    result.set_type(signless)
    with ir.InsertionPoint.after(loop), loop.location:
        unsigned_result = _bitcast(result, unsigned)
    result.replace_all_uses_except(unsigned_result, unsigned_result.owner.operation)


@dataclasses.dataclass
class SignlessLoopCarries(Pass):
    """Carry the unsigned integer tensors a while loop's body scatters into as signless."""

    NAME = "shlo-signless-loop-carries"

    def run(self, op: ir.Operation) -> None:
        with op.context, ir.Location.unknown():
            for loop in nested_ops(op, "stablehlo.while"):
                loop = loop.operation
                for place in _scattered_carries(loop):
                    _carry_signless(loop, place)
