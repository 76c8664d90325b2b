"""shlo-expand-f64-math: f64 and complex<f64> transcendental ops rewritten into f64 arithmetic.

IREE's llvm-cpu backend links no math library, so an f64 sine, cosine, tan, tanh, atan2,
cbrt or remainder fails to link (`undefined symbol: sin`), and every complex<f64> function
(exp, log, sqrt, ... through their real sin/cos/atan2) with it; SPIR-V has no 64-bit exp, log
or sin at all; and IREE's own f64 log1p/expm1 lose all precision near 0. This pass replaces
each such op by an expansion in arithmetic (shlo.passes.f64_math, fdlibm's algorithms, and
the sin/cos/tan/atan2 kernels of shlo-legalize-chlo): the real ones within a few ULP, the
complex ones by the usual formulas on top of them. Complex rules emit real f64 ops, which the
real rules then expand in the same run.
"""
from __future__ import annotations

import dataclasses
import re

from iree.compiler import ir

from ..dialect import stablehlo
from . import chlo_trig, f64_math
from .base import Pass
from .chlo_expr import (Match, Num, complex_, element_of, hypot, imag, is_nan, maximum,
                        minimum, real, select, sqrt)
from .chlo_sincos import sin_cos
from .op_rules import apply_rules

F64, C128 = "f64", "complex<f64>"


def _log1p(x: Num) -> Num:
    return Num(stablehlo.log_plus_one(x.value))


def _exp(x: Num) -> Num:
    return Num(stablehlo.exponential(x.value))


def _expm1(x: Num) -> Num:
    return Num(stablehlo.exponential_minus_one(x.value))


def _log(x: Num) -> Num:
    return Num(stablehlo.log(x.value))


def _atan2(y: Num, x: Num) -> Num:
    return Num(stablehlo.atan2(y.value, x.value))


def _cis(b: Num) -> tuple[Num, Num]:
    s, c = sin_cos(b)
    return c, s


# --- complex kernels (z = a + ib) ----------------------------------------------------------------

def c_exp(z: Num) -> Num:
    """e^a (cos b + i sin b); e^a as (e^(a/2))^2 where e^a alone would overflow; a real
    argument keeps a zero imaginary part (inf * 0 would be NaN)."""
    a, b = real(z), imag(z)
    c, s = _cis(b)
    big = a > 700.0
    e = _exp(select(big, a * 0.5, a))
    re = select(big, (e * c) * e, e * c)
    im = select(big, (e * s) * e, e * s)
    return complex_(re, select(b.eq(0.0), b, im))


def c_expm1(z: Num) -> Num:
    """(expm1(a) cos b - 2 sin^2(b/2)) + i e^a sin b: no cancellation near 0."""
    a, b = real(z), imag(z)
    c, s = _cis(b)
    half_sin, _ = sin_cos(b * 0.5)
    re = _expm1(a) * c - 2.0 * half_sin * half_sin
    return complex_(re, select(b.eq(0.0), b, _exp(a) * s))


def _log_abs(a: Num, b: Num) -> Num:
    """log|a + ib| without overflow, and without cancellation near |z| = 1."""
    x, y = abs(a), abs(b)
    mx, mn = maximum(x, y), minimum(x, y)
    near_one = (mx > 0.5) & (mx < 2.0)
    ratio = select(mx.eq(0.0), mx, mn / mx)
    far = _log(mx) + 0.5 * _log1p(ratio * ratio)
    near = 0.5 * _log1p((mx - 1.0) * (mx + 1.0) + mn * mn)
    return select(near_one, near, far)


def c_log(z: Num) -> Num:
    a, b = real(z), imag(z)
    return complex_(_log_abs(a, b), _atan2(b, a))


def c_log1p(z: Num) -> Num:
    """log(1 + z): the real part as 0.5 log1p(2a + a^2 + b^2) while |1 + z| is near 1."""
    a, b = real(z), imag(z)
    u = a + 1.0
    small = (abs(a) < 0.5) & (abs(b) < 0.5)
    re = select(small, 0.5 * _log1p(a * (a + 2.0) + b * b), _log_abs(u, b))
    return complex_(re, _atan2(b, u))


def c_sin(z: Num) -> Num:
    a, b = real(z), imag(z)
    s, c = sin_cos(a)
    return complex_(s * chlo_trig.cosh(b), select(b.eq(0.0), b, c * chlo_trig.sinh(b)))


def c_cos(z: Num) -> Num:
    a, b = real(z), imag(z)
    s, c = sin_cos(a)
    im = -(s * chlo_trig.sinh(b))
    return complex_(c * chlo_trig.cosh(b), select(b.eq(0.0), -(b * s), im))


def c_tan(z: Num, op: ir.Operation) -> Num:
    return Num(chlo_trig.RULES["chlo.tan"](Match(op, [z.value]))[0])


def c_tanh(z: Num, op: ir.Operation) -> Num:
    """tanh(z) = -i tan(iz): with tan(-b + ia) = p + iq, tanh(a + ib) = q - ip."""
    t = c_tan(complex_(-imag(z), real(z)), op)
    return complex_(imag(t), -real(t))


def c_logistic(z: Num) -> Num:
    return Num(stablehlo.divide(z.like(1.0).value, (1.0 + c_exp(-z)).value))


def c_sqrt(z: Num) -> Num:
    """t = sqrt((|a| + |z|) / 2); a >= 0: t + i b/(2t), else |b|/(2t) + i sign(b) t."""
    a, b = real(z), imag(z)
    t = sqrt((abs(a) + hypot(abs(a), abs(b))) * 0.5)
    zero = t.eq(0.0)
    other = select(zero, t, abs(b) / (2.0 * t))
    negative_b = (b < 0.0) | (b.eq(0.0) & (1.0 / b < 0.0))
    re = select(a >= 0.0, t, other)
    im = select(a >= 0.0, select(zero, b, b / (2.0 * t)), select(negative_b, -t, t))
    out = complex_(re, im)
    return select(is_nan(a) | is_nan(b), complex_(a + b, a + b), out)


def c_rsqrt(z: Num) -> Num:
    """conj(sqrt(z)) / |z|: no complex division, whose |w|^2 underflows for small z."""
    w = c_sqrt(z)
    size = hypot(abs(real(z)), abs(imag(z)))
    return complex_(real(w) / size, -imag(w) / size)


def c_power(x: Num, y: Num) -> Num:
    """exp(y log x); 0^y is 0 for re(y) > 0, and x^0 is 1."""
    out = c_exp(Num(stablehlo.multiply(y.value, c_log(x).value)))
    x_zero = real(x).eq(0.0) & imag(x).eq(0.0)
    y_zero = real(y).eq(0.0) & imag(y).eq(0.0)
    out = select(x_zero & (real(y) > 0.0), x.like(0.0), out)
    return select(y_zero, x.like(1.0), out)


def c_atan2(y: Num, x: Num) -> Num:
    """The spec's complex atan2: -i log((x + iy) / sqrt(x^2 + y^2))."""
    def mul(a, b):
        return Num(stablehlo.multiply(a.value, b.value))
    i = complex_(real(x).like(0.0), 1.0)
    num = Num(stablehlo.add(x.value, mul(i, y).value))
    den = c_sqrt(Num(stablehlo.add(mul(x, x).value, mul(y, y).value)))
    return mul(-i, c_log(Num(stablehlo.divide(num.value, den.value))))


def c_cbrt(z: Num) -> Num:
    """The principal cube root: cbrt(|z|) (cos(t/3) + i sin(t/3)), t = arg z."""
    a, b = real(z), imag(z)
    size = Num(stablehlo.cbrt(hypot(abs(a), abs(b)).value))
    s, c = sin_cos(_atan2(b, a) * (1.0 / 3.0))
    return complex_(size * c, size * s)


# --- the table: op -> (kernel on f64, kernel on complex<f64>) --------------------------------------

def _tan_real(x: Num, op: ir.Operation) -> Num:
    return Num(chlo_trig.RULES["chlo.tan"](Match(op, [x.value]))[0])


EXPANSIONS = {
    "stablehlo.exponential": (f64_math.exp, c_exp),
    "stablehlo.exponential_minus_one": (f64_math.expm1, c_expm1),
    "stablehlo.log": (f64_math.log, c_log),
    "stablehlo.log_plus_one": (f64_math.log1p, c_log1p),
    "stablehlo.logistic": (f64_math.logistic, c_logistic),
    "stablehlo.sine": (lambda x: sin_cos(x)[0], c_sin),
    "stablehlo.cosine": (lambda x: sin_cos(x)[1], c_cos),
    "stablehlo.tan": (_tan_real, c_tan),
    "stablehlo.tanh": (f64_math.tanh, c_tanh),
    "stablehlo.atan2": (chlo_trig.atan2, c_atan2),
    "stablehlo.power": (f64_math.power, c_power),
    "stablehlo.cbrt": (f64_math.cbrt, c_cbrt),
    "stablehlo.remainder": (f64_math.fmod, None),
    "stablehlo.sqrt": (None, c_sqrt),
    "stablehlo.rsqrt": (None, c_rsqrt),
}
NEEDS_OP = {_tan_real, c_tan, c_tanh}      # kernels that read the op (result type, location)


def _rule(real_kernel, complex_kernel):
    def rule(op: ir.Operation):
        et = str(element_of(op.operands[0]))
        kernel = {F64: real_kernel, C128: complex_kernel}.get(et)
        if kernel is None:
            return None
        args = [Num(v) for v in op.operands]
        out = kernel(*args, op) if kernel in NEEDS_OP else kernel(*args)
        return [out.value]
    return rule


RULES = {name: _rule(*kernels) for name, kernels in EXPANSIONS.items()}


def without_f64_expansion(pipeline: str) -> str:
    """`pipeline` without this pass: for f64 demoted to f32 by IREE, which would turn the
    expansions' f64 <-> i64 bitcasts into invalid f32 <-> i64 ones."""
    return re.sub(r"\bshlo-expand-f64-math(\{[^}]*\})?\s*,\s*", "", pipeline)


@dataclasses.dataclass
class ExpandF64Math(Pass):
    """Expand f64 and complex<f64> transcendental ops into f64 arithmetic."""

    NAME = "shlo-expand-f64-math"

    def run(self, op: ir.Operation) -> None:
        apply_rules(op, RULES, self.NAME)
