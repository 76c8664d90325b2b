"""shlo-expand-complex-dot: complex dot_general (and convolution) as four real ones.

IREE fails to compile a complex<f32> matrix product on CPU and Vulkan; a dot of two vectors
compiles. A complex<f64> product compiles alone, but one inside a loop (the triangular solve
of jax's complex128 solve_triangular) crashes the compiler when data tiling is on; it takes
the same rewrite in f64. Small complex convolutions compile, but some complex<f32> ones (a
dilated kernel with permuted layouts) crash the compiler: convolutions take the same rewrite,
each product a real convolution with the op's attributes
(docs/iree_gaps.md#shlo-expand-complex-dot). The failing part is the complex tensor inside the matmul's
dispatch: the rewrite keeps the dimension numbers, precision and algorithm of the op, computes
(a_re b_re - a_im b_im) + i (a_re b_im + a_im b_re), each product a real dot_general IREE
compiles and data-tiles like any other, and puts a fusion barrier between the two real
results and the `complex` that joins them (without it IREE fuses the join into the matmul
dispatch and fails the same way); inside a while, if or case, and on run-time shapes, the
fence is an optimization_barrier (`chlo_stablehlo_extras.fence`).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..lib import builders as extras
from ..lib.expr import Num, attributes, complex_, element_of, imag, real, with_element
from ..op_rules import RulesPass


def _real_dot(op: ir.Operation, lhs: Num, rhs: Num, result: ir.Type) -> Num:
    return Num(ir.Operation.create(op.name, results=[result],
                                   operands=[lhs.value, rhs.value],
                                   attributes=attributes(op)).result)


_PARTS = {"complex<f32>": ir.F32Type, "complex<f64>": ir.F64Type}


def _complex_dot(op: ir.Operation):
    element = str(element_of(op.results[0]))
    if element not in _PARTS:
        return None
    a, b = (Num(v) for v in op.operands)
    if str(a.element) != element or str(b.element) != element:
        return None
    result = with_element(op.results[0].type, _PARTS[element].get())
    ar, ai, br, bi = real(a), imag(a), real(b), imag(b)
    re = _real_dot(op, ar, br, result) - _real_dot(op, ai, bi, result)
    im = _real_dot(op, ar, bi, result) + _real_dot(op, ai, br, result)
    re, im = extras.fence([re.value, im.value])
    return [complex_(Num(re), Num(im)).value]


@dataclasses.dataclass
class ExpandComplexDot(RulesPass):
    """Rewrite complex dot_general and convolution into four real ones."""

    NAME = "shlo-expand-complex-dot"
    RULES = {"stablehlo.dot_general": _complex_dot, "stablehlo.convolution": _complex_dot}
