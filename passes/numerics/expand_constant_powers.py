"""shlo-expand-constant-powers: an f32 x ** c whose exponent c is a constant integer or half
integer (|c| <= 8, c != 0) is computed in f64 as a product of x's, times sqrt(x) for a half,
inverted for a negative c, and rounded to f32 once.

shlo-accurate-math computes every f32 pow in f64 with fdlibm's pow (IREE's own is exp(y log x)
in f32, inaccurate; docs/iree_gaps.md#shlo-accurate-math): logs, exps and their splitting
cost about 100 operations an element. A
simulation's x ** -1.5 (n-body forces, r2 ** -1.5 over 256 x 256 pairs and 40 steps) spent
most of its time there. The product form is as accurate: at most ~10 f64 operations of 2^-53
each before one rounding to f32, so the f32 result is the correctly rounded one except within
about 1e-15 of a rounding boundary. Special values follow C's pow: a half integer's result
is never negative (pow(-0, 0.5) = +0, pow(-0, -0.5) = +inf), pow(-inf, c) = +inf or +0, and
a negative x gives NaN (sqrt); integer exponents keep the sign of odd powers. f64 products
cannot overflow or underflow for f32 inputs and |c| <= 8 where the f32 result would not.
Targets without f64 (`f64=false`) keep pow as it is.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from ..lib.expr import Num, element_of, select, sqrt
from ..op_rules import apply_rules
from ..base import Pass

MAX_EXPONENT = 8
_THROUGH = ("stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert")


def constant_exponent(value: ir.Value) -> float | None:
    """The float splat `value` is made of (through broadcasts and reshapes), else None."""
    while isinstance(value.owner, (ir.Operation, ir.OpView)) and value.owner.name in _THROUGH:
        value = value.owner.operands[0]
    owner = value.owner
    if not isinstance(owner, (ir.Operation, ir.OpView)) or owner.name != "stablehlo.constant":
        return None
    attr = ir.DenseElementsAttr(owner.attributes["value"])
    if not attr.is_splat or not isinstance(element_of(value).maybe_downcast(), ir.FloatType):
        return None
    return float(ir.FloatAttr(attr.get_splat_value()).value)


def _integer_power(x: Num, n: int) -> Num:
    """x ** n for n >= 1 by squaring."""
    result, square = None, x
    while n:
        if n & 1:
            result = square if result is None else result * square
        n >>= 1
        if n:
            square = square * square
    return result  # type: ignore[return-value]  # n >= 1: set


def _power(op: ir.Operation):
    x, y = op.operands
    if str(element_of(x)) != "f32":
        return None
    c = constant_exponent(y)
    if c is None or c == 0 or abs(c) > MAX_EXPONENT or 2 * c != math.floor(2 * c):
        return None
    n, half = int(abs(c)), 2 * c % 2 == 1
    wide = Num(x).to("f64")
    factors = [_integer_power(wide, n)] if n else []
    if half:
        factors.append(sqrt(wide))
    result = factors[0] if len(factors) == 1 else factors[0] * factors[1]
    if c < 0:
        result = 1.0 / result
    if half:    # never negative; pow(-inf, c) is +inf or +0, where sqrt gave NaN
        result = select(wide.eq(-math.inf), math.inf if c > 0 else 0.0, abs(result))
    return [result.to("f32").value]


@dataclasses.dataclass
class ExpandConstantPowers(Pass):
    """Compute f32 pow with a constant integer or half-integer exponent (|c| <= 8) as f64
    products and a square root, rounded once."""

    NAME = "shlo-expand-constant-powers"
    f64: bool = True            # the target computes f64 arithmetic

    def run(self, op: ir.Operation) -> None:
        if self.f64:
            apply_rules(op, {"stablehlo.power": _power}, self.NAME)
