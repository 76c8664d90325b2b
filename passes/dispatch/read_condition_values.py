"""shlo-read-condition-values: a while loop's body reads the carried values that only its
condition reads.

jax's random_gamma of 2023 (StableHLO's testdata random_gamma_float32_chlo and
random_gamma_float64_chlo) draws samples in a rejection loop whose condition alone reads them:
the body draws new ones without reading the old. IREE turns such a loop into an scf.while
whose condition hands the body fewer values than it hands out of the loop, and its
ConvertToStream pass then crashes the compiler
(docs/iree_gaps.md#shlo-read-condition-values). This pass makes the body return, for each such
value, select(cond(x), new, old): cond(x) is true wherever the body runs, so the values are
the same, and the body now reads the value it replaces (the condition is computed once more
per trip).

Only loops that IREE leaves at the top of a function are changed: loops inside another loop
(of other than one trip, which IREE folds away) compile as they are, and IREE fails to
schedule some of them once their bodies read those values. A condition may read them through
ops with regions (jax's `while max|dx| > tol`: a reduce), which crashed the same way.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, nested_ops
from ..chlo.structure import inline_block
from .unroll_scan_loops import trip_count


def _inside_a_loop(op: ir.Operation) -> bool:
    """Whether an enclosing while loop runs other than exactly once."""
    parent = op.parent
    while parent is not None:
        if parent.name == "stablehlo.while" and trip_count(parent) != 1:
            return True
        parent = parent.parent
    return False


def _condition_only(loop: ir.Operation) -> list[bool]:
    """For each carried value: whether the condition reads it and the body does not."""
    cond, body = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    return [bool(list(c.uses)) and not list(b.uses)
            for c, b in zip(cond.arguments, body.arguments)]


def read_in_body(loop: ir.Operation) -> None:
    cond, body = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    terminator = list(body.operations)[-1]
    chosen = _condition_only(loop)
    with ir.InsertionPoint(terminator), loop.location:
        flag = inline_block(cond, list(body.arguments))[0]
        for i, only in enumerate(chosen):
            if only:
                terminator.operands[i] = stablehlo.select(flag, terminator.operands[i],
                                                          body.arguments[i])


@dataclasses.dataclass
class ReadConditionValues(Pass):
    """Make a top-level while loop's body read the carried values only its condition reads."""

    NAME = "shlo-read-condition-values"

    def run(self, op: ir.Operation) -> None:
        for loop in nested_ops(op, "stablehlo.while"):
            loop = loop.operation
            if _inside_a_loop(loop):
                continue
            if any(_condition_only(loop)):
                read_in_body(loop)
