"""Shared by the ULP-accuracy test files: mpmath oracles with C99's special cases, the
one-function-per-case module text, and the ULP assertion."""
from __future__ import annotations

import math

import numpy as np

from shlo.tools.chlo_accuracy import ulp_distance


def mp():
    """mpmath at 200 bits (sin(1e38) needs the 128 bits of pi/2 below the exponent)."""
    import mpmath
    mpmath.mp.prec = 200
    return mpmath


def power(x: float, y: float) -> float:
    """C's pow: mpmath for finite nonzero results, math.pow's special cases otherwise."""
    try:
        v = math.pow(x, y)
    except OverflowError:
        return -math.inf if x < 0 and y == int(y) and int(y) % 2 else math.inf
    except ValueError:       # 0 to a negative power: inf, signed for odd integers; or NaN
        odd = y == int(y) and int(y) % 2
        return math.nan if x != 0 else math.copysign(math.inf, x) if odd else math.inf
    if v != 0 and math.isfinite(v) and x > 0 and math.isfinite(x) and math.isfinite(y):
        return float(mp().power(mp().mpf(x), mp().mpf(y)))
    return v


def atan2(y: float, x: float) -> float:
    """atan2 with IEEE's special cases (zeros, infinities), mpmath elsewhere."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    v = math.atan2(y, x)
    if v != 0 and math.isfinite(x) and math.isfinite(y) and x != 0 and y != 0:
        return float(mp().atan2(mp().mpf(y), mp().mpf(x)))
    return v


def function_text(i: int, op: str, type_name: str, args) -> str:
    """`func.func @f<i>` applying stablehlo.<op> to tensors of `args`' size and `type_name`."""
    t = f"tensor<{args[0].size}x{type_name}>"
    params = ", ".join(f"%a{k}: {t}" for k in range(len(args)))
    names = ", ".join(f"%a{k}" for k in range(len(args)))
    return (f"func.func @f{i}({params}) -> {t} {{\n  %r = stablehlo.{op} {names} : {t}\n"
            f"  return %r : {t}\n}}")


def assert_ulp(got, want: np.ndarray, bound: float, op: str, type_name: str, args,
               signed_zeros: bool = False) -> None:
    """Every element of `got` within `bound` ULP of `want`; the message shows the worst.
    signed_zeros: a zero of the other sign than a zero in `want` fails too (ulp_distance
    counts +0 and -0 as equal), for oracles that give signed zeros."""
    with np.errstate(all="ignore"):
        got = np.asarray(got).astype(want.dtype)
    errors = ulp_distance(got, want)
    if signed_zeros:
        parts = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" \
            else [(got, want)]
        for g, w in parts:
            errors = np.where((g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w)),
                              np.inf, errors)
    worst = int(np.argmax(np.nan_to_num(errors, posinf=1e300)))
    shown = ", ".join(repr(a[worst]) for a in args)
    assert errors.max() <= bound, (f"{op}({shown}) on {type_name} = {got[worst]!r}, want "
                                   f"{want[worst]!r}: {errors[worst]} ULP > {bound}")
