"""Vulkan quirk rewrites of loop bodies: offsets IREE would compute on the device and read
back to the host every trip (docs/iree_gaps.md, vk-loop-index-readback)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect.types import constant_values
from ...base import defined_by


def _scalar_int(value: ir.Value) -> int | None:
    """The value of a constant integer scalar (or splat), else None."""
    values = constant_values(value)
    return None if values is None or values.size == 0 or (values != values.flat[0]).any() \
        else int(values.flat[0])


def counter_range(value: ir.Value) -> tuple[int, int] | None:
    """[low, high] of a while body's argument that counts up: its loop starts it at a
    constant, runs while it is below a constant N (signed), and adds a constant k >= 0 per
    trip with no wrap-around (N + k fits its type)."""
    if not isinstance(value.owner, ir.Block):
        return None
    body = value.owner
    loop = body.owner.operation
    if loop.name != "stablehlo.while" or body != loop.regions[1].blocks[0]:
        return None
    t = ir.RankedTensorType(value.type)
    element = t.element_type.maybe_downcast()
    if t.rank != 0 or not isinstance(element, ir.IntegerType) or not element.is_signless:
        return None
    index = value.arg_number
    cond = list(loop.regions[0].blocks[0].operations)
    compare = defined_by(cond[-1].operands[0], "stablehlo.compare")
    if (compare is None or compare.operands[0] != loop.regions[0].blocks[0].arguments[index]
            or str(compare.attributes["comparison_direction"]).split()[-1].rstrip(">") != "LT"
            or "UNSIGNED" in str(compare.attributes["compare_type"]
                                 if "compare_type" in compare.attributes else "")):
        return None
    step = defined_by(list(body.operations)[-1].operands[index], "stablehlo.add")
    if step is None or value not in list(step.operands):
        return None
    other = step.operands[1] if step.operands[0] == value else step.operands[0]
    start, end, k = (_scalar_int(loop.operands[index]), _scalar_int(compare.operands[1]),
                     _scalar_int(other))
    if start is None or end is None or k is None or k < 0 or end + k >= 1 << (element.width - 1):
        return None
    return start, max(start, end - 1)


def counter_wrap(op: ir.Operation):
    """jax's negative-index wrap `select(i < 0, i + n, i)` of a loop counter that is never
    negative (counter_range) as `i`, so that the offset it gives stays a host value."""
    pred, _, value = op.operands
    compare = defined_by(pred, "stablehlo.compare")
    if (compare is None or compare.operands[0] != value
            or str(compare.attributes["comparison_direction"]).split()[-1].rstrip(">") != "LT"):
        return None
    bounds = counter_range(value)      # (first: a signless integer counter, or None)
    if bounds is None or bounds[0] < 0 or _scalar_int(compare.operands[1]) != 0:
        return None
    return [value]

