"""shlo-swap-transposed-dots: a transpose of a dot_general's result that only swaps the
lhs's free dims with the rhs's is the dot_general of the swapped operands:
transpose(dot(a, b)) -> dot(b, a).

jax's gradient of a weight used as `x @ w.T` (a tied embedding's output projection) is a
dot_general contracting the batch of tokens, then a transpose back to the weight's layout.
IREE fuses that transpose, with the optimizer's update, into the matmul's data-tiled
dispatch, whose transposed tile then needs more stack than the CPU code allows
(docs/iree_gaps.md#shlo-swap-transposed-dots). The
swapped dot writes its result in the weight's layout; no transpose is left. Batch dims must
stay first and in order, and each operand's free dims keep their order; the dot must have no
other user.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..base import defined_by
from ..op_rules import RulesPass


def _transpose(op: ir.Operation):
    dot = defined_by(op.operands[0], "stablehlo.dot_general")
    if dot is None or len(list(dot.results[0].uses)) != 1:
        return None
    (lhs, rhs), numbers = arguments(dot)
    if "algorithm" in numbers:
        return None
    rank = {side: ir.RankedTensorType(v.type).rank for side, v in (("lhs", lhs), ("rhs", rhs))}
    batch = len(numbers["lhs_batching_dimensions"])
    free = {side: rank[side] - batch - len(numbers[f"{side}_contracting_dimensions"])
            for side in rank}
    swapped = (list(range(batch)) + [batch + free["lhs"] + i for i in range(free["rhs"])]
               + [batch + i for i in range(free["lhs"])])
    if [int(p) for p in ir.DenseI64ArrayAttr(op.attributes["permutation"])] != swapped:
        return None
    kwargs = {f"{new}_{kind}_dimensions": numbers[f"{old}_{kind}_dimensions"]
              for new, old in (("lhs", "rhs"), ("rhs", "lhs"))
              for kind in ("batching", "contracting")}
    if "precision_config" in numbers:
        kwargs["precision_config"] = tuple(reversed(numbers["precision_config"]))
    return [stablehlo.dot_general(rhs, lhs, **kwargs, result_type=op.results[0].type)]


@dataclasses.dataclass
class SwapTransposedDots(RulesPass):
    """transpose(dot_general(a, b)) -> dot_general(b, a) where the transpose only swaps the
    two operands' free dims."""

    NAME = "shlo-swap-transposed-dots"
    RULES = {"stablehlo.transpose": _transpose}
