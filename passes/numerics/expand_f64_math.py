"""shlo-expand-f64-math: f64 and complex<f64> transcendental ops rewritten into f64 arithmetic.

IREE's llvm-cpu backend links no math library, so an f64 sine, cosine, tan, tanh, atan2,
cbrt or remainder fails to link (`undefined symbol: sin`), and every complex<f64> function
(exp, log, sqrt, ... through their real sin/cos/atan2) with it; SPIR-V has no 64-bit exp, log
or sin at all; and IREE's own f64 log1p/expm1 lose all precision near 0. This pass replaces
each such op by an expansion in arithmetic (shlo.passes.numerics.f64_math, fdlibm's algorithms, and
the sin/cos/tan/atan2 kernels of shlo-legalize-chlo): the real ones within a few ULP, the
complex ones by shlo.passes.numerics.complex_math on top of them. Complex rules emit real f64 ops,
which the real rules then expand in the same run.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..chlo import trig as chlo_trig
from . import f64_math
from ..lib.expr import Num, element_of
from ..chlo.sincos import sin_cos
from .complex_math import (c_abs, c_atan2, c_cbrt, c_cos, c_divide, c_exp, c_expm1, c_log,
    c_log1p, c_logistic, c_power, c_rsqrt, c_sign, c_sin, c_sqrt, c_tanh)
from ..op_rules import RulesPass
from ..pipeline import parse_pipeline

F64, C128 = "f64", "complex<f64>"


# --- the table: op -> (kernel on f64, kernel on complex<f64>) --------------------------------------

EXPANSIONS = {
    "stablehlo.exponential": (f64_math.exp, c_exp),
    "stablehlo.exponential_minus_one": (f64_math.expm1, c_expm1),
    "stablehlo.log": (f64_math.log, c_log),
    "stablehlo.log_plus_one": (f64_math.log1p, c_log1p),
    "stablehlo.logistic": (f64_math.logistic, c_logistic),
    "stablehlo.sine": (lambda x: sin_cos(x)[0], c_sin),
    "stablehlo.cosine": (lambda x: sin_cos(x)[1], c_cos),
    "stablehlo.tan": (chlo_trig.tan_real, chlo_trig.complex_tan),
    "stablehlo.tanh": (f64_math.tanh, c_tanh),
    "stablehlo.atan2": (chlo_trig.atan2, c_atan2),
    "stablehlo.power": (f64_math.power, c_power),
    "stablehlo.cbrt": (f64_math.cbrt, c_cbrt),
    "stablehlo.remainder": (f64_math.fmod, None),
    "stablehlo.sqrt": (None, c_sqrt),
    "stablehlo.rsqrt": (None, c_rsqrt),
    "stablehlo.abs": (None, c_abs),
    "stablehlo.sign": (None, c_sign),
}


def _rule(real_kernel, complex_kernel):
    def rule(op: ir.Operation):
        et = str(element_of(op.operands[0]))
        kernel = {F64: real_kernel, C128: complex_kernel}.get(et)
        if kernel is None:
            return None
        return [kernel(*map(Num, op.operands)).value]
    return rule


RULES = {name: _rule(*kernels) for name, kernels in EXPANSIONS.items()}
# and complex<f64> division by Smith's algorithm (IREE's overflows past |y| = 1.3e154)
RULES["stablehlo.divide"] = _rule(None, c_divide)


def without_f64_expansion(pipeline: str) -> str:
    """`pipeline` without this pass: for f64 demoted to f32 by IREE, which would turn the
    expansions' f64 <-> i64 bitcasts into invalid f32 <-> i64 ones."""
    return parse_pipeline(pipeline).remove(ExpandF64Math.NAME).text(", ") if pipeline else ""


@dataclasses.dataclass
class ExpandF64Math(RulesPass):
    """Expand f64 and complex<f64> transcendental ops into f64 arithmetic."""

    NAME = "shlo-expand-f64-math"
    RULES = RULES
