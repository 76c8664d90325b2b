"""shlo-barrier-returned-arguments: a public function's argument that it returns and also
reads is returned through a `stablehlo.optimization_barrier`.

IREE returns such an argument as the caller's own buffer and lets an op that reads it
update that buffer in place: `return x, dynamic_update_slice(x, u, i)` returned the updated x
(20 of 24 wrong), `return x, sort(x)` a sorted x (53 of 81), silently, on cpu and vulkan, also
without shlo's passes (docs/iree_gaps.md#shlo-barrier-returned-arguments). Returned through a
barrier, x is a value of its own and comes back unchanged. A returned view of such an argument
(a reshape, slice, transpose, ...: `return reshape(x), sort(x)` was wrong too) goes through the
barrier alike. Arguments only returned, and those of dynamic shape (IREE cannot compile a
barrier on them), are left alone. So is one returned through an op that IREE folds to it (a
reduce over no dimensions, a pad by zero, x * 1, ...: `identity_source`; shlo-fold-identity-ops
folds them before this pass, which looks through any left): `return reduce(x) over no
dimensions, sort(x)` returned the sorted x (seed 72 program 163).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import BUFFER_VIEWS, Pass, nested_ops
from ..folding.fold_identity_ops import identity_source
from ..lib import builders as extras


def _is_public(func: ir.Operation) -> bool:
    return "sym_visibility" not in func.attributes or \
        ir.StringAttr(func.attributes["sym_visibility"]).value == "public"


def _source(value: ir.Value) -> ir.Value | None:
    """The operand that `value` is a view of (BUFFER_VIEWS), or the value it equals when an
    identity op defines it (IREE folds it to that value; a select of one value twice: seed 31
    program 606), else None."""
    if not isinstance(value, ir.OpResult):
        return None
    op = value.owner.operation
    return op.operands[0] if op.name in BUFFER_VIEWS else identity_source(value)


def _fenced(value: ir.Value, block: ir.Block, ret: ir.Operation) -> bool:
    """A static-shape value that is an argument of `block`, or a view of one (BUFFER_VIEWS), which
    another op than `ret` and the views leading to it reads too."""
    t = value.type.maybe_downcast()
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return False
    chain = [ret]
    while (source := _source(value)) is not None:
        chain.append(value.owner.operation)
        value = source
    if not isinstance(value, ir.BlockArgument) or value.owner != block:
        return False
    return any(use.owner.operation not in chain for use in value.uses)


@dataclasses.dataclass
class BarrierReturnedArguments(Pass):
    """Return a public function's arguments that it also reads through a barrier."""

    NAME = "shlo-barrier-returned-arguments"

    def run(self, op: ir.Operation) -> None:
        for func in nested_ops(op, "func.func"):
            func = func.operation
            if not func.regions[0].blocks or not _is_public(func):
                continue
            block = func.regions[0].blocks[0]
            ret = list(block.operations)[-1].operation
            places = [i for i, v in enumerate(ret.operands) if _fenced(v, block, ret)]
            values = list(dict.fromkeys(ret.operands[i] for i in places))
            if not values:
                continue
            with ir.InsertionPoint(ret), ret.location:
                fenced = dict(zip(values, extras.optimization_barrier(values)))
            for i in places:
                ret.operands[i] = fenced[ret.operands[i]]
