"""shlo-fence-reduced-gathers (Vulkan): a gather whose result a reduce reduces over two or more
dimensions, one of them a gathered (batch) dimension, directly or through elementwise ops, is
computed behind a fence.

IREE 3.13's SPIR-V backend fuses the gather into the reduce's dispatch and, when that dispatch
takes its SubgroupReduce pipeline, sums garbage: `jnp.sum(x[idx] + x)` of f32[8, 16] gave 1.1e15
or inf for 24.1, `jnp.sum(x[idx] + x, axis=(0, 1))` of f32[8, 8, 8] wrong rows, every call,
also without shlo's passes (shlo-fuzz --jax seed 4 programs 23 and 30;
docs/iree_gaps.md#shlo-fence-reduced-gathers). Found wrong from 8 to 512 elements; reduces over
one dimension, over the gathered slices' own dimensions only, max and min, and 1-D gathers were
right. Behind the fence (lib.builders.fence) the gather is a dispatch of its own and the reduce
reads a plain tensor.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect.rebuild import arguments

from ..base import Pass, nested_ops
from ..lib import builders as extras
from ..lib.elementwise import ELEMENTWISE_OPS
from ..shapes.refine_fold import ints


def _batch_dims(gather: ir.Operation) -> set[int]:
    """The result dimensions of `gather` that index its operand (those not in offset_dims)."""
    offset = {int(d) for d in arguments(gather)[1].get("offset_dims") or ()}
    return set(range(ir.RankedTensorType(gather.results[0].type).rank)) - offset


def _reduced_gathers(value: ir.Value, dims: frozenset[int]) -> list[ir.Operation]:
    """The gathers that compute `value`, reduced over its dimensions `dims`, themselves or
    through elementwise ops of its shape and transposes, with a gathered dimension among
    those reduced."""
    found, seen, stack = [], set(), [(value, dims)]
    while stack:
        value, dims = stack.pop()
        if (value, dims) in seen or not isinstance(value, ir.OpResult):
            continue
        seen.add((value, dims))
        owner = value.owner
        if owner.name == "stablehlo.gather":
            if dims & _batch_dims(owner):
                found.append(owner)
        elif owner.name == "stablehlo.transpose":
            permutation = ints(owner, "permutation")
            stack.append((owner.operands[0], frozenset(permutation[d] for d in dims)))
        elif owner.name in ELEMENTWISE_OPS:
            shape = ir.RankedTensorType(value.type).shape
            stack.extend((operand, dims) for operand in owner.operands
                         if ir.RankedTensorType(operand.type).shape == shape)
    return found


@dataclasses.dataclass
class FenceReducedGathers(Pass):
    """Compute a gather that a reduce reduces across its gathered rows and more in a dispatch
    of its own."""

    NAME = "shlo-fence-reduced-gathers"

    def run(self, op: ir.Operation) -> None:
        fenced: set = set()
        for reduce in nested_ops(op, "stablehlo.reduce"):
            if reduce.name != "stablehlo.reduce" or len(dims := frozenset(ints(reduce, "dimensions"))) < 2:
                continue
            for operand in reduce.operands[:len(reduce.operands) // 2]:
                for gather in _reduced_gathers(operand, dims):
                    if gather.results[0] not in fenced:
                        fenced.add(gather.results[0])
                        extras.fence_uses(gather.results[0], lambda v: extras.fence([v])[0])
