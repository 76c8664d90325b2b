"""log1p and expm1 of any float or complex type: f64 through fdlibm's kernels in
shlo.passes.numerics.f64_math, other types through StableHLO's own ops."""
from __future__ import annotations

from shlo.dialect import stablehlo
from . import f64_math
from ..lib.expr import Num, is_complex


def log1p(x) -> Num:
    """log(1 + x). f64 takes fdlibm's algorithm in f64 arithmetic (shlo.passes.numerics.f64_math, <= 1
    ULP): IREE's CPU code computes the f64 op as log(1 + x), 0 for tiny |x|
    (docs/iree_gaps.md#passesnumericslog1p_expm1)."""
    x = Num(x)
    if not x.is_f64 or is_complex(x.element):
        return Num(stablehlo.log_plus_one(x.value))
    return f64_math.log1p(x)


def expm1(x) -> Num:
    """exp(x) - 1. f64 takes fdlibm's algorithm (shlo.passes.numerics.f64_math), for the same reason
    as log1p."""
    x = Num(x)
    if not x.is_f64 or is_complex(x.element):
        return Num(stablehlo.exponential_minus_one(x.value))
    return f64_math.expm1(x)
