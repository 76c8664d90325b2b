"""Vulkan quirk rewrites of loop bodies: offsets IREE would compute on the device and read
back to the host every trip (docs/iree_gaps.md, vk-loop-index-readback)."""
from __future__ import annotations

from iree.compiler import ir

from ...base import defined_by
from ...lib.loops import constant_int, counter


def counter_range(value: ir.Value) -> tuple[int, int] | None:
    """[low, high] of a while body's argument that is its loop's counter (lib.loops.Counter.range:
    a signless integer from a constant start below a constant N, signed, stepped by a constant
    k >= 0 with no wrap-around)."""
    if not isinstance(value.owner, ir.Block):
        return None
    body = value.owner
    loop = body.owner.operation
    if loop.name != "stablehlo.while" or body != loop.regions[1].blocks[0]:
        return None
    found = counter(loop)
    return found.range if found is not None and found.index == value.arg_number else None


def counter_wrap(op: ir.Operation):
    """jax's negative-index wrap `select(i < 0, i + n, i)` of a loop counter that is never
    negative (counter_range) as `i`, so that the offset it gives stays a host value."""
    pred, _, value = op.operands
    compare = defined_by(pred, "stablehlo.compare")
    if (compare is None or compare.operands[0] != value
            or str(compare.attributes["comparison_direction"]).split()[-1].rstrip(">") != "LT"):
        return None
    bounds = counter_range(value)      # (first: a signless integer counter, or None)
    if bounds is None or bounds[0] < 0 or constant_int(compare.operands[1]) != 0:
        return None
    return [value]

