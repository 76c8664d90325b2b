"""shlo-legalize-reducer-rounding: round_nearest_even/afz inside reducer bodies, from floor.

IREE turns a reducer body (reduce, reduce_window, scatter, select_and_scatter, sort, map)
into scalar code, and has no scalar form for stablehlo.round_nearest_even or
round_nearest_afz there (docs/iree_gaps.md#shlo-legalize-reducer-rounding). Both also come
from shlo's own expansions (the argument reduction of exp, sin, cos, tan, tanh, pow, cbrt,
remainder), so jax's cumlogsumexp on f64 or a sine in a reduce_window would not compile.
Inside those bodies this pass computes them from
floor, which IREE does convert, exactly:

    t = floor(x), d = x - t (exact)
    afz:  floor(|x|) + (|x| - floor(|x|) >= 0.5)
    even: t + (d > 0.5 or (d == 0.5 and t is odd))
and gives the result the sign of x (so -0.3 rounds to -0.0); inf and NaN pass through.
Rounding ops outside reducer bodies stay IREE's.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib.expr import Num, element_of, float_info, floor, is_float, select
from ..op_rules import RulesPass

BODY_OPS = frozenset({"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter",
                      "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.map"})


def _in_body(op: ir.Operation) -> bool:
    parent = op.parent
    while parent is not None:
        if parent.name in BODY_OPS:
            return True
        parent = parent.parent
    return False


def _with_sign_of(r: Num, x: Num) -> Num:
    """|r| with the sign bit of x (copysign)."""
    bits = float_info(x.element).bits
    xi = x.bitcast(f"i{bits}")
    sign = xi.like(-(1 << (bits - 1)))
    return ((r.bitcast(f"i{bits}") & ~sign) | (xi & sign)).bitcast(x.element)


def _round(even: bool):
    def rule(op: ir.Operation):
        x = Num(op.operands[0])
        if not is_float(element_of(op.operands[0])) or not _in_body(op):
            return None
        if even:
            t = floor(x)
            d = x - t
            odd = (t - floor(t * 0.5) * 2).eq(1)
            up = (d > 0.5) | (d.eq(0.5) & odd)
            r = select(up, t + 1, t)
        else:
            a = abs(x)
            t = floor(a)
            r = select((a - t) >= 0.5, t + 1, t)
        finite = abs(x) < float("inf")
        return [select(finite, _with_sign_of(r, x), x).value]
    return rule


@dataclasses.dataclass
class LegalizeReducerRounding(RulesPass):
    """Compute round_nearest_even/afz from floor inside reducer bodies."""

    NAME = "shlo-legalize-reducer-rounding"
    RULES = {"stablehlo.round_nearest_even": _round(True),
             "stablehlo.round_nearest_afz": _round(False)}
