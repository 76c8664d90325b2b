"""shlo-split-complex-constants: a complex<f64> constant as stablehlo.complex of two f64 constants,
and so a complex<f32> splat that a dynamic_update_slice updates (on Vulkan every complex<f32>
constant, vk-complex-constant: `split_constant`).

IREE cannot materialize complex<f64> constants that no dispatch absorbs (a loop's initial
value, a constant returned from a function): a splat's fill pattern is at most 64 bits, and a
non-splat one crashes the compiler (docs/iree_gaps.md#shlo-split-complex-constants). jax's
complex128 cholesky starts its loop from such a zero matrix. The pass writes every
complex<f64> constant as `stablehlo.complex` of its real and imaginary parts, two f64
constants (bit-exact, NaN payloads included). A dynamic_update_slice into a complex<f32>
splat (`jnp.zeros(c64).at[i].set(x)` with a traced i, a short loop unrolled) fails to compile
the same way (`'arith.constant' op attribute 'value' failed to satisfy constraint`); a
non-splat one, a scatter or a loop's initial value compile. A broadcast scalar counts as a
splat. It runs after the pipeline's canonicalize,
which would fold a broadcast scalar back into a splat.
"""
from __future__ import annotations

import dataclasses
import re
import struct

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import is_splat_constant
from ..lib.expr import element_of, generic_text
from ..op_rules import RulesPass

_DENSE = re.compile(r"value = dense<(.*)> : tensor<")
_PAIR = re.compile(r"\(\s*([^,()]+?)\s*,\s*([^,()]+?)\s*\)")


def _float(literal: str) -> float:
    """An MLIR f64 or f32 literal: decimal, or the bits in hex (NaN, infinities, inexact
    decimals)."""
    if literal.lower().startswith("0x"):
        if len(literal) <= 10:                          # the bits of an f32
            return struct.unpack("<f", struct.pack("<I", int(literal, 16)))[0]
        return struct.unpack("<d", struct.pack("<Q", int(literal, 16)))[0]
    return float(literal)


def _values(op: ir.Operation, shape: list[int]) -> np.ndarray | None:
    """The constant's elements (complex128, in `shape`), read from its text: the bindings
    cannot wrap complex elements."""
    found = _DENSE.search(generic_text(op))
    if found is None:
        return None
    body = found.group(1).strip()
    if body.startswith('"0x'):                          # raw little-endian bytes
        data = np.frombuffer(bytes.fromhex(body[3:-1]), dtype="<c16" if "complex<f64>" in
                             str(op.result.type) else "<c8").astype(np.complex128)
    else:
        data = np.array([complex(_float(a), _float(b)) for a, b in _PAIR.findall(body)])
    size = int(np.prod(shape))
    if data.size == 1 and size != 1:                    # a splat
        data = np.full(size, data[0])
    return data.reshape(shape) if data.size == size else None


def complex_values(op: ir.Operation) -> np.ndarray | None:
    """A complex constant's elements (complex128, in its shape), or None."""
    t = ir.RankedTensorType(op.result.type)
    if str(t.element_type) not in ("complex<f32>", "complex<f64>"):
        return None
    return _values(op, list(t.shape))


def split_constant(op: ir.Operation, element: str = "complex<f64>"):
    """A constant of complex `element` as stablehlo.complex of two real constants, or None."""
    if str(element_of(op.result)) != element:
        return None
    t = ir.RankedTensorType(op.result.type)
    values = complex_values(op)
    if values is None:
        return None
    part_type = ir.RankedTensorType.get(t.shape, ir.ComplexType(t.element_type).element_type)
    dtype = np.float64 if element == "complex<f64>" else np.float32
    real, imag = (stablehlo.constant(np.array(part, dtype=dtype), result_type=part_type)
                  for part in (values.real, values.imag))
    return [stablehlo.complex(real, imag)]


def _updated_in_place(value: ir.Value) -> bool:
    """Whether a dynamic_update_slice updates `value` or a broadcast of it."""
    for use in value.uses:
        if use.owner.name == "stablehlo.dynamic_update_slice" and use.operand_number == 0 or \
                use.owner.name == "stablehlo.broadcast_in_dim" and \
                _updated_in_place(use.owner.results[0]):
            return True
    return False


def _split_constant(op: ir.Operation):
    """complex<f64> constants, and complex<f32> splats updated in place, by parts."""
    if str(element_of(op.result)) == "complex<f32>" and is_splat_constant(op) and \
            _updated_in_place(op.result):
        return split_constant(op, "complex<f32>")
    return split_constant(op)


@dataclasses.dataclass
class SplitComplexConstants(RulesPass):
    """Write complex<f64> constants, and complex<f32> splats that a dynamic_update_slice
    updates, as stablehlo.complex of two real constants."""

    NAME = "shlo-split-complex-constants"
    RULES = {"stablehlo.constant": _split_constant}
