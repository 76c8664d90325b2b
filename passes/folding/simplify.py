"""shlo-simplify: fold StableHLO ops on constants and apply exact algebraic identities.

The counterpart of stablehlo-opt's `--stablehlo-aggressive-simplification` and
`--stablehlo-aggressive-folder`: IREE's `canonicalize` has no StableHLO folders
(docs/iree_gaps.md#shlo-simplify).

Folded (simplify_fold.py), when every operand is a `stablehlo.constant` of i1, i8..i64,
ui8..ui64, f16, bf16, f32 or f64 and the result is a static tensor of at most
`fold-op-element-limit` elements (default 65536; stablehlo-opt's default is smaller): add,
subtract, multiply, divide, remainder, negate, abs, sign, maximum, minimum, and, or, xor, not,
the three shifts (amounts >= the bit width give 0, or the sign for shift_right_arithmetic),
compare (every direction; UNSIGNED compares the bits as unsigned; TOTALORDER only where it
agrees with the float order, see simplify_fold), select, clamp, convert, reshape,
broadcast_in_dim, transpose, slice, concatenate, reverse and pad.

Identities (IDENTITIES below), each exact for every input: x + 0 and x - 0 for integers; for
floats only x + (-0.0) and x - (+0.0) (-0.0 + 0.0 is +0.0); x * 1; x * 0 for integers; x / 1;
and/or/xor with all-zero or all-one bits; not(not x); negate(negate x); select on a constant
predicate or of two equal values; compare(x, x) for integers; a convert, reshape, transpose,
broadcast_in_dim, slice, pad, concatenate, reverse that changes nothing; reshape, transpose,
broadcast_in_dim and slice of the same op, composed into one; dynamic_slice with constant
starts as a slice (starts clamped as the spec says); a dynamic_update_slice whose update is
the whole operand; get_tuple_element of a tuple; real/imag of stablehlo.complex.

Deliberately left alone: x * 0, x + 0.0 and compare(x, x) on floats (NaN, -0.0); integer
division or remainder by zero and INT_MIN / -1, float -> int converts out of range and
int -> int converts that do not fit (the spec leaves their values to the implementation);
iota (a constant is larger than the op); constants of complex, f8/f6/f4 and 2-/4-bit integer
types (the bindings cannot read complex or sub-byte elements back, and numpy has no arithmetic
of its own for the small floats); optimization_barrier and whatever it produces. A rule
never changes a value's type, and one that meets anything unexpected leaves the op. Dead ops
are left to canonicalize and cse (the greedy driver removes the ones it visits).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.types import constant_values
from ..base import defined_by
from ..op_rules import RulesPass, apply_rules
from ..shapes.refine_fold import int_attr, ints
from .simplify_fold import (FOLDERS, array_of, fold, kind, plain_static, signed_bits, unsigned_bits,
    width)


# ---- what a constant operand holds ----------------------------------------------------------

def all_elements(value: ir.Value, test) -> bool:
    """`value` is a foldable constant, or a broadcast_in_dim of one, whose elements all pass
    `test(array)`."""
    inner = defined_by(value, "stablehlo.broadcast_in_dim")
    arr = array_of(value if inner is None else inner.operands[0])
    return arr is not None and arr.size > 0 and bool(np.all(test(arr)))


def _zero_bits(a): return unsigned_bits(a) == 0
def _one_bits(a): return signed_bits(a) == -1 if kind(a.dtype) != "b" else a
def _minus_zero(a): return kind(a.dtype) == "f" and unsigned_bits(a) == 1 << (width(a.dtype) - 1)
def _plus_zero(a): return kind(a.dtype) == "f" and _zero_bits(a)
def _int_zero(a): return kind(a.dtype) != "f" and _zero_bits(a)
def _one(a): return a == 1


def _other(op: ir.Operation, test) -> ir.Value | None:
    """For a commutative op: the operand whose partner passes `all_elements(partner, test)`."""
    x, y = op.operands
    return x if all_elements(y, test) else y if all_elements(x, test) else None


# ---- elementwise identities -----------------------------------------------------------------

def _add(op):
    return _other(op, lambda a: _int_zero(a) | _minus_zero(a))


def _subtract(op):
    x, y = op.operands
    return x if all_elements(y, lambda a: _int_zero(a) | _plus_zero(a)) else None


def _multiply(op):
    kept = _other(op, _one)
    if kept is not None:
        return kept
    x, y = op.operands
    return y if all_elements(y, _int_zero) else x if all_elements(x, _int_zero) else None


def _divide(op):
    x, y = op.operands
    return x if all_elements(y, _one) else None


def _and(op):
    x, y = op.operands
    zero = y if all_elements(y, _zero_bits) else x if all_elements(x, _zero_bits) else None
    return zero if zero is not None else _other(op, _one_bits)


def _or(op):
    x, y = op.operands
    ones = y if all_elements(y, _one_bits) else x if all_elements(x, _one_bits) else None
    return ones if ones is not None else _other(op, _zero_bits)


def _xor(op):
    return _other(op, _zero_bits)


def _twice(name):
    def rule(op):
        inner = defined_by(op.operands[0], name)
        return inner.operands[0] if inner is not None else None
    return rule


def _select(op):
    pred, on_true, on_false = op.operands
    if on_true == on_false:
        return on_true
    if all_elements(pred, lambda a: a):
        return on_true
    return on_false if all_elements(pred, lambda a: ~a) else None


def _compare(op):
    x, y = op.operands
    element = ir.RankedTensorType(x.type).element_type
    t = plain_static(op.results[0].type)
    if x != y or t is None or not isinstance(element.maybe_downcast(), ir.IntegerType):
        return None
    value = enum_name(op.attributes["comparison_direction"]) in ("EQ", "GE", "LE")
    return stablehlo.constant(np.full(list(t.shape), value), result_type=t)


# ---- shape identities ---------------------------------------------------------------------

def _same(op):
    """The op's operand, when the op only restates its type (convert, reshape)."""
    return op.operands[0]


def _reshape(op):
    inner = defined_by(op.operands[0], "stablehlo.reshape")
    if inner is not None:
        return stablehlo.reshape(inner.operands[0], result_type=op.results[0].type)
    return op.operands[0]


def _transpose(op):
    perm = ints(op, "permutation")
    inner = defined_by(op.operands[0], "stablehlo.transpose")
    if inner is None:
        return op.operands[0] if perm == sorted(perm) else None
    composed = [ints(inner, "permutation")[p] for p in perm]
    if composed == sorted(composed):
        return inner.operands[0]
    return stablehlo.transpose(inner.operands[0], permutation=composed,
                               result_type=op.results[0].type)


def _broadcast_in_dim(op):
    dims = ints(op, "broadcast_dimensions")
    inner = defined_by(op.operands[0], "stablehlo.broadcast_in_dim")
    if inner is None:
        return op.operands[0] if dims == list(range(len(dims))) else None
    composed = [dims[d] for d in ints(inner, "broadcast_dimensions")]
    return stablehlo.broadcast_in_dim(inner.operands[0], broadcast_dimensions=composed,
                                      result_type=op.results[0].type)


def _slice(op):
    starts, limits, strides = (ints(op, n) for n in ("start_indices", "limit_indices", "strides"))
    inner = defined_by(op.operands[0], "stablehlo.slice")
    if inner is None:
        shape = list(ir.RankedTensorType(op.operands[0].type).shape)
        whole = all(s == 0 and lim == n and (k == 1 or n <= 1)
                    for s, lim, k, n in zip(starts, limits, strides, shape))
        return op.operands[0] if whole else None
    s1, k1 = ints(inner, "start_indices"), ints(inner, "strides")
    out = list(ir.RankedTensorType(op.results[0].type).shape)
    start = [a + b * k for a, b, k in zip(s1, starts, k1)]
    stride = [k * j for k, j in zip(k1, strides)]
    limit = [s + (n - 1) * k + 1 if n else s for s, n, k in zip(start, out, stride)]
    return stablehlo.slice(inner.operands[0], start_indices=start, limit_indices=limit,
                           strides=stride, result_type=op.results[0].type)


def _pad(op):
    names = ("edge_padding_low", "edge_padding_high", "interior_padding")
    return op.operands[0] if not any(v for n in names if n in op.attributes
                                     for v in ints(op, n)) else None


def _concatenate(op):
    dim = int_attr(op, "dimension")
    inputs = list(op.operands)
    kept = [v for v in inputs if ir.RankedTensorType(v.type).shape[dim] != 0]
    if len(inputs) == 1 or len(kept) == 1:
        return (kept or inputs)[0]
    if not kept or len(kept) == len(inputs):
        return None
    return stablehlo.concatenate(kept, dimension=dim, result_type=op.results[0].type)


def _reverse(op):
    shape = ir.RankedTensorType(op.operands[0].type).shape
    return op.operands[0] if all(shape[d] == 1 for d in ints(op, "dimensions")) else None


def _dynamic_slice(op):
    x, starts = op.operands[0], list(op.operands[1:])
    values = [constant_values(v) for v in starts]
    shape = list(ir.RankedTensorType(x.type).shape)
    if any(v is None for v in values) or not ir.RankedTensorType(x.type).has_static_shape:
        return None
    sizes = ints(op, "slice_sizes")
    start = [min(max(int(v.reshape(())), 0), n - s) for v, n, s in zip(values, shape, sizes)]
    return stablehlo.slice(x, start_indices=start, limit_indices=[a + s for a, s in
                                                                  zip(start, sizes)],
                           strides=[1] * len(sizes), result_type=op.results[0].type)


def _dynamic_update_slice(op):
    """Every start clamps to 0 when the update is as large as the operand: it is the result.
    An update with no elements writes nothing: the operand is (IREE's vulkan compile of one
    after a sort failed: seed 67 program 917)."""
    x, update = op.operands[0], op.operands[1]
    if 0 in ir.RankedTensorType(update.type).shape:
        return x
    static = ir.RankedTensorType(x.type).has_static_shape
    return update if static and update.type == x.type else None


def _get_tuple_element(op):
    inner = defined_by(op.operands[0], "stablehlo.tuple")
    return inner.operands[int_attr(op, "index")] if inner is not None else None


def _part(index: int):
    def rule(op):
        inner = defined_by(op.operands[0], "stablehlo.complex")
        return inner.operands[index] if inner is not None else None
    return rule


# op name -> rule(op) -> an existing value (an operand, or a constant the op reads) that
# replaces its result, or None; no rule here builds an op (shlo-fold-identity-ops reuses them).
# A rule may return a value of another type: the caller keeps the op then.
EXISTING_VALUE_RULES = {
    "stablehlo.add": _add, "stablehlo.subtract": _subtract, "stablehlo.multiply": _multiply,
    "stablehlo.divide": _divide, "stablehlo.and": _and, "stablehlo.or": _or,
    "stablehlo.xor": _xor, "stablehlo.not": _twice("stablehlo.not"),
    "stablehlo.negate": _twice("stablehlo.negate"), "stablehlo.select": _select,
    "stablehlo.convert": _same, "stablehlo.pad": _pad, "stablehlo.reverse": _reverse,
    "stablehlo.dynamic_update_slice": _dynamic_update_slice,
    "stablehlo.get_tuple_element": _get_tuple_element,
    "stablehlo.real": _part(0), "stablehlo.imag": _part(1),
}

# op name -> rule(op) -> the value or new op that replaces its result, or None.
IDENTITIES = {
    **EXISTING_VALUE_RULES,
    "stablehlo.compare": _compare, "stablehlo.reshape": _reshape,
    "stablehlo.transpose": _transpose, "stablehlo.broadcast_in_dim": _broadcast_in_dim,
    "stablehlo.slice": _slice, "stablehlo.concatenate": _concatenate,
    "stablehlo.dynamic_slice": _dynamic_slice,
}


def _rule(name: str, limit: int):
    identity = IDENTITIES.get(name)

    def rule(op: ir.Operation):
        try:
            array = fold(op, limit)
            if array is not None:
                return [stablehlo.constant(array, result_type=op.results[0].type)]
            value = identity(op) if identity is not None else None
        except Exception:        # bad or unexpected input: leave the op (see the docstring)
            return None
        if isinstance(value, (ir.Operation, ir.OpView)):
            value = value.result
        if value is None or value.type != op.results[0].type:
            return None
        return [value]
    return rule


@dataclasses.dataclass
class Simplify(RulesPass):
    """Fold StableHLO ops on constants and apply identities that hold for every input."""

    NAME = "shlo-simplify"
    # Most elements an op's result may have to be folded into a constant.
    fold_op_element_limit: int = 65536

    def run(self, op: ir.Operation) -> None:
        rules = {name: _rule(name, self.fold_op_element_limit)
                 for name in {**FOLDERS, **IDENTITIES}}
        apply_rules(op, rules, self.NAME)
