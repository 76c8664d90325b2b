"""shlo-accurate-math: the float functions IREE computes wrongly, rewritten into accurate ones.

On the CPU, IREE's f32 sine and cosine lose accuracy for tiny and for large arguments and
overflow to +-inf for huge ones; tan follows them; atan2 is wrong for (y < 0, x = -huge) and
inaccurate elsewhere; every complex<f32> function IREE builds on them (exp, expm1, sin, cos,
tan, tanh) inherits their errors, and complex log, log1p, sqrt and rsqrt are inaccurate too.
f16, bf16 and the f8 types compute these in f32 and inherit the same errors. IREE's f32 cbrt
is inaccurate (NaN for inf); complex abs and sign overflow past sqrt(max) (|z|^2 computed
directly), and so does complex division (|c|^2 + |d|^2: (1e30 + 0i) / (1e30 + 0i) was NaN;
Smith's algorithm here, test_complex_divide). The errors measured:
docs/iree_gaps.md#shlo-accurate-math.

This pass rewrites those ops, for every float type below f64 and for complex<f32>, into
shlo's kernels: sin/cos with exact argument reduction (`chlo_sincos`), tan and atan2 from
`chlo_trig`, cbrt from `f32_math`, complex functions (with C99 Annex G's values at zeros,
infinities and NaNs) from `complex_math`. Narrower floats compute in f32 and
round once. f64 and complex<f64> are shlo-expand-f64-math's. With `exp-log=true`, which
targets whose own f32 exp, log1p and tanh are wrong set (`TargetKind.pass_options`: Vulkan),
f32 exp, expm1, log1p, logistic and tanh become `f32_math`'s kernels too. pow below f64 is
computed in f64 (fdlibm's, `f64_math`) unless `f64=false`, which targets without f64 set.
The price is speed (measured in the same subsection): `shlo.compile(..., fast_math=True)` or
`shlo-compile --fast-math` leaves this pass out.
"""
from __future__ import annotations

import dataclasses
import functools

from iree.compiler import ir

from ..chlo import trig as chlo_trig
from . import f32_math, f64_math
from ..base import Pass
from ..lib.expr import Num, element_of, is_complex, is_float
from ..chlo.sincos import sin_cos
from .complex_math import (c_abs, c_cos, c_divide, c_exp, c_expm1, c_log, c_log1p, c_logistic,
    c_power, c_rsqrt, c_sign, c_sin, c_sqrt, c_tanh)
from ..op_rules import apply_rules
from ..pipeline import parse_pipeline

C64 = "complex<f32>"


def _power_in_f64(x: Num, y: Num) -> Num:
    """x^y computed in f64 (fdlibm's pow in f64 arithmetic) and rounded once."""
    return f64_math.power(x.to("f64"), y.to("f64")).to("f32")


# op -> (kernel on f32, kernel on complex<f32>); None: IREE's own is accurate
EXPANSIONS = {
    "stablehlo.sine": (lambda x: sin_cos(x)[0], c_sin),
    "stablehlo.cosine": (lambda x: sin_cos(x)[1], c_cos),
    "stablehlo.tan": (chlo_trig.tan_real, chlo_trig.complex_tan),
    "stablehlo.atan2": (chlo_trig.atan2, None),
    "stablehlo.exponential": (None, c_exp),
    "stablehlo.exponential_minus_one": (None, c_expm1),
    "stablehlo.log": (None, c_log),
    "stablehlo.log_plus_one": (None, c_log1p),
    "stablehlo.logistic": (None, c_logistic),
    "stablehlo.tanh": (None, c_tanh),
    "stablehlo.sqrt": (None, c_sqrt),
    "stablehlo.rsqrt": (None, c_rsqrt),
    "stablehlo.power": (None, c_power),
    "stablehlo.cbrt": (f32_math.cbrt, None),
    "stablehlo.abs": (None, c_abs),
    "stablehlo.sign": (None, c_sign),
    "stablehlo.divide": (None, c_divide),   # IREE's overflows past |y| = 1.8e19
}
# with f64=true (targets that compute f64 arithmetic): pow below f64 goes through f64 (IREE
# computes exp(y log x) in f32, inaccurate for large results; docs/iree_gaps.md#shlo-accurate-math)
F64_POWER = {"stablehlo.power": _power_in_f64}
# with exp-log=true (targets whose own f32 exp, log1p and tanh are wrong: Vulkan on Mesa)
EXP_LOG = {
    "stablehlo.exponential": f32_math.exp,
    "stablehlo.exponential_minus_one": f32_math.expm1,
    "stablehlo.log_plus_one": f32_math.log1p,
    "stablehlo.logistic": f32_math.logistic,
    "stablehlo.tanh": f32_math.tanh,
}


def _rule(real_kernel, complex_kernel):
    def rule(op: ir.Operation):
        et = element_of(op.operands[0])
        if str(et) == C64:
            kernel, work = complex_kernel, None
        elif is_float(et) and not is_complex(et) and str(et) != "f64":
            kernel, work = real_kernel, ir.F32Type.get()
        else:
            return None
        if kernel is None:
            return None
        args = [Num(v) if work is None else Num(v).to(work) for v in op.operands]
        out = kernel(*args)
        return [out.to(element_of(op.results[0])).value]
    return rule


@functools.lru_cache(maxsize=None)
def rules(exp_log: bool, f64: bool) -> dict:
    """The rule table for a combination of the pass's options."""
    real = {name: kernels[0] for name, kernels in EXPANSIONS.items()}
    real.update(EXP_LOG if exp_log else {})
    real.update(F64_POWER if f64 else {})
    return {name: _rule(real.get(name), EXPANSIONS.get(name, (None, None))[1]) for name in real}


def without_accurate_math(pipeline: str) -> str:
    """`pipeline` without this pass (fast math: IREE's own, inaccurate functions)."""
    return parse_pipeline(pipeline).remove(AccurateMath.NAME).text(", ") if pipeline else ""


@dataclasses.dataclass
class AccurateMath(Pass):
    """Rewrite sin/cos/tan/atan2 below f64 and complex<f32> functions into accurate kernels."""

    NAME = "shlo-accurate-math"
    exp_log: bool = False       # also f32 exp, expm1, log1p, logistic, tanh (numerics.f32_math)
    f64: bool = True            # the target computes f64 arithmetic: pow goes through f64

    def run(self, op: ir.Operation) -> None:
        apply_rules(op, rules(self.exp_log, self.f64), self.NAME)
