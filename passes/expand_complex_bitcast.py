"""shlo-expand-complex-bitcast: bitcast_convert complex<f64> -> complex<f32> through integers.

IREE 3.13's compiler segfaults on `bitcast_convert` from complex<f64> to complex<f32> (the
spec allows bitcasts only between complex types when either side is complex), and on one from
a complex type to itself (jax's bitcast_convert_type(x, complex64) of a complex64 x), which is
its operand and is replaced by it. For the first, the rewrite moves the bits itself: each
f64 part becomes its 64 bits, split into a low and a high 32-bit word (unsigned, so every
step is exact); the low word is the real part of the f32 pair, the high word its imaginary
part (memory order, little-endian, as the spec's bits_to_complex sees it), and the real
part's pair comes before the imaginary part's. The other direction
(complex<f32> -> complex<f64>) compiles and is IREE's own. Dynamic shapes stay as they are.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..dialect import stablehlo
from .chlo_expr import Num, complex_, element_of, imag, real, shift_right_logical
from .index_vectors import reshape, shape_of
from .op_rules import RulesPass


def _words(part: Num) -> tuple[Num, Num]:
    """(low, high) 32-bit words of an f64 tensor's bits, as f32."""
    bits = part.bitcast("ui64")
    low = (bits & 0xFFFFFFFF).to("ui32").bitcast("f32")
    high = shift_right_logical(bits, 32).to("ui32").bitcast("f32")
    return low, high


def _c128_to_c64(op: ir.Operation):
    x = op.operands[0]
    if x.type == op.result.type and isinstance(element_of(x), ir.ComplexType):
        return [x]
    if str(element_of(x)) != "complex<f64>" or str(element_of(op.result)) != "complex<f32>":
        return None
    if not ir.RankedTensorType(x.type).has_static_shape:
        return None
    shape = shape_of(x)
    pairs = [complex_(*_words(part(Num(x)))) for part in (real, imag)]
    columns = [reshape(p.value, shape + [1]) for p in pairs]
    return [stablehlo.concatenate(columns, dimension=len(shape))]


@dataclasses.dataclass
class ExpandComplexBitcast(RulesPass):
    """Rewrite bitcast_convert complex<f64> -> complex<f32> into integer word moves; drop a
    complex bitcast to its own type."""

    NAME = "shlo-expand-complex-bitcast"
    RULES = {"stablehlo.bitcast_convert": _c128_to_c64}
