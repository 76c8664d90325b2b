"""f64 stays f64: reject, before IREE runs, what a target cannot compute in double precision.

IREE demotes f64 to f32 by default; shlo turns that off, so an f64 program
either runs in f64 or fails here with a message that names the op, its
location and the opt-in (`demote_f64=True`, `shlo-compile --demote-f64`).
Vulkan has f64 arithmetic but SPIR-V's GLSL.std.450 has no 64-bit
transcendental functions; some Vulkan targets have no f64 at all.
"""
from __future__ import annotations

from iree.compiler import ir

from ..errors import CompileError, location_text
from ..passes.base import nested_ops
from ..pipelines.targets import F64_ARITHMETIC, F64_NONE, Target
from .boundary import F64_ELEMENTS as _F64, element_name

# Ops whose f64 form needs GLSL.std.450 functions that only exist for 16/32-bit floats
# (IREE's SPIR-V backend fails to compile each in f64; docs/iree_gaps.md#runtimef64).
F64_TRANSCENDENTAL = frozenset({
    "stablehlo.cbrt", "stablehlo.cosine", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one",
    "stablehlo.logistic", "stablehlo.sine", "stablehlo.tan", "stablehlo.tanh",
    "stablehlo.atan2", "stablehlo.power",
    "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan", "chlo.atanh",
    "chlo.bessel_i1e", "chlo.cosh", "chlo.sinh", "chlo.tan", "chlo.digamma", "chlo.erf",
    "chlo.erfc", "chlo.erf_inv", "chlo.lgamma", "chlo.polygamma", "chlo.zeta",
})


def check_f64(module_op: ir.Operation, target: Target) -> None:
    """Raise CompileError if `target` cannot compute this module's f64 ops in f64."""
    support = target.f64
    if target.demote_f64 or support not in (F64_NONE, F64_ARITHMETIC):
        return
    for op in nested_ops(module_op):
        if support == F64_NONE and _touches_f64(op):
            _reject(op, target, f"{target.name} has no f64 at all")
        if op.name in F64_TRANSCENDENTAL and _touches_f64(op):
            _reject(op, target, f"{target.name} cannot compute {op.name} in f64 (SPIR-V's "
                                f"GLSL.std.450 has no 64-bit {op.name.split('.')[1]})")


def _reject(op: ir.Operation, target: Target, why: str):
    where = location_text(op.location)
    raise CompileError(f"{why}; shlo never demotes f64 silently: compile with demote_f64=True "
                       f"(shlo-compile --demote-f64) to compute in f32, or for a target with "
                       f"full f64 (cpu, cuda, vmvx)", location=where)


def _touches_f64(op: ir.Operation) -> bool:
    types = [v.type for v in op.operands] + [r.type for r in op.results]
    if op.name == "func.func":
        function_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        types += list(function_type.inputs) + list(function_type.results)
    return any(element_name(t) in _F64 for t in types)
