"""shlo-fence-transposed-variadic-reduces: a reduce of several results (an arg-max: values and
indices) one of whose results reaches a transpose is computed in a dispatch of its own, each
of its results behind a fence.

IREE 3.13 fails to compile such a reduce on every backend ("'linalg.yield' op expected number
of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp
(1)"): moving the transpose into the reduction's linalg.generic keeps one of its outputs and
both of its yields, whether the other result is used or not
(docs/iree_gaps.md#shlo-fence-transposed-variadic-reduces). Each result is followed through
elementwise ops (converts included), reshapes and broadcast_in_dim; a transpose reached, a
dot_general or convolution (IREE may transpose their operands: an arg-min's indices as a
dot's leading contracting dimensions failed alike), or a broadcast_in_dim that reorders
dimensions, fences all the reduce's results
(passes/lib/builders.fence: IREE moves no transpose past the barrier).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders as extras
from ..lib.elementwise import ELEMENTWISE_OPS

_THROUGH = frozenset({"stablehlo.reshape", "stablehlo.broadcast_in_dim"})


# ops whose operands IREE may transpose into their own layout (fuzz seed 74 program 622: an
# arg-min's indices as a dot_general's leading contracting dimensions): the products, and the
# legacy stablehlo.dot, which is one too
_PRODUCTS = frozenset({*extras.PRODUCTS, "stablehlo.dot"})


def _reorders(op: ir.Operation) -> bool:
    """Whether `op` moves dimensions: a transpose, a product (_PRODUCTS), or a
    broadcast_in_dim whose dimensions are not increasing."""
    if op.name == "stablehlo.transpose" or op.name in _PRODUCTS:
        return True
    if op.name == "stablehlo.broadcast_in_dim":
        dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
        return dims != sorted(dims)
    return False


def reaches_transpose(value: ir.Value) -> bool:
    """Whether a transpose or a product reads `value`, directly or through elementwise ops,
    reshapes and broadcast_in_dim."""
    seen: set = set()
    stack = [value]
    while stack:
        for use in stack.pop().uses:
            user = use.owner.operation
            if _reorders(user):
                return True
            if user.name in ELEMENTWISE_OPS or user.name in _THROUGH:
                fresh = [r for r in user.results if r not in seen]
                seen.update(fresh)
                stack.extend(fresh)
    return False


@dataclasses.dataclass
class FenceTransposedVariadicReduces(Pass):
    """Fence the results of reduces with several results one of which reaches a transpose."""

    NAME = "shlo-fence-transposed-variadic-reduces"

    def run(self, op: ir.Operation) -> None:
        for reduce in nested_ops(op, "stablehlo.reduce"):
            results = list(reduce.results)
            if reduce.name != "stablehlo.reduce" or len(results) < 2 or not any(reaches_transpose(r) for r in results):
                continue
            extras.fence_readers([r for r in results if list(r.uses)], reduce)
