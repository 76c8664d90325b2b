"""shlo-expand-complex-bitcast: bitcast_convert between complex<f64> and complex<f32> through
integers.

IREE's compiler crashes (docs/iree_gaps.md#shlo-expand-complex-bitcast) on `bitcast_convert`
between complex<f64> and complex<f32>, in
either direction (the spec allows bitcasts only between complex types when either side is
complex), and on one from a complex type to itself (jax's bitcast_convert_type(x, complex64)
of a complex64 x), which is its operand and is replaced by it. For the others, the rewrite
moves the bits itself, in memory order (little-endian, as the spec's bits_to_complex sees
it): an f64 part is 64 bits whose low 32-bit word is the real part of an f32 pair and whose
high word is its imaginary part, and the real part's pair comes before the imaginary part's.
Words travel as unsigned integers, so every step is exact. Dynamic shapes stay as they are.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib.expr import Num, complex_, element_of, imag, real, shift_left, shift_right_logical
from ..expand.index_vectors import reshape, shape_of
from ..op_rules import RulesPass


def _words(part: Num) -> tuple[Num, Num]:
    """(low, high) 32-bit words of an f64 tensor's bits, as f32."""
    bits = part.bitcast("ui64")
    low = (bits & 0xFFFFFFFF).to("ui32").bitcast("f32")
    high = shift_right_logical(bits, 32).to("ui32").bitcast("f32")
    return low, high


def _f64_of(low: Num, high: Num) -> Num:
    """The f64 whose bits are the f32 words `low` and `high`."""
    return (low.bitcast("ui32").to("ui64") | shift_left(high.bitcast("ui32").to("ui64"), 32)
            ).bitcast("f64")


def _complex_bitcast(op: ir.Operation):
    x = op.operands[0]
    if x.type == op.result.type and isinstance(element_of(x), ir.ComplexType):
        return [x]
    kinds = (str(element_of(x)), str(element_of(op.result)))
    if kinds not in (("complex<f64>", "complex<f32>"), ("complex<f32>", "complex<f64>")) or \
            not ir.RankedTensorType(x.type).has_static_shape:
        return None
    shape = shape_of(x)
    if kinds[0] == "complex<f32>":                          # [..., 2] pairs -> [...]
        pair = [Num(reshape(stablehlo.slice(x, start_indices=[0] * (len(shape) - 1) + [k],
                                            limit_indices=shape[:-1] + [k + 1],
                                            strides=[1] * len(shape)), shape[:-1]))
                for k in (0, 1)]
        return [complex_(*(_f64_of(real(p), imag(p)) for p in pair)).value]
    pairs = [complex_(*_words(part(Num(x)))) for part in (real, imag)]
    columns = [reshape(p.value, shape + [1]) for p in pairs]
    return [stablehlo.concatenate(columns, dimension=len(shape))]


@dataclasses.dataclass
class ExpandComplexBitcast(RulesPass):
    """Rewrite bitcast_convert between complex<f64> and complex<f32> into integer word moves;
    drop a complex bitcast to its own type."""

    NAME = "shlo-expand-complex-bitcast"
    RULES = {"stablehlo.bitcast_convert": _complex_bitcast}
