"""shlo-fold-identity-ops: replace each op that returns one of its operands unchanged (for every
input) by that operand, and inline an `if`/`case` on a constant.

IREE folds such ops to their operand after shlo's pipeline, and passes that ask which value a
function returns or a loop updates (shlo-barrier-returned-arguments, shlo-barrier-loop-results)
then looked at an op where IREE put the operand: `return reduce(x) over no dimensions, sort(x)`
returned the sorted x on cpu (seed 72 program 163), as did the same return through a pad by
zero, a select on a constant predicate, a concatenate of one operand, real of a real tensor, a
clamp to the type's whole range, maximum(x, x), x * 1, an `if` on a constant, a one-branch
`case` (docs/iree_gaps.md#shlo-barrier-returned-arguments). Folded first, those passes see the
value IREE will see.

Folded: a reduce over no dimensions (each result is its input whatever the body and init: the
spec lets the init be applied no times; XLA and IREE do so, the reference interpreter applies
it once); a reduce_window of one-element windows whose init is the body's identity (IREE
folds it, and a dynamic_update_slice of x by a slice of it then failed to compile on vulkan,
fuzz seed 188, update_by_identity_window_of_two_vulkan); a map whose body returns an
argument; a while whose condition is the constant false; the value-preserving cases of
shlo-simplify that return an existing value (EXISTING_VALUE_RULES: x + 0, x * 1, select on a
constant, pad by zero, ...); maximum/minimum/and/or of a value with itself; maximum by the
type's lowest value and minimum by its highest; a shift by 0; a reduce_precision to a format
no narrower than its f16/bf16/f32/f64 type (IREE folds these too: a dynamic_update_slice of x
by a slice of one of them failed to compile on vulkan); a clamp whose bounds are the type's
extremes (-inf and +inf for floats), or of a value by itself; real of a real tensor, and of a real
tensor converted to complex; a convert, reshape, bitcast_convert, slice, dynamic_slice,
dynamic_reshape that keeps the type; a transpose or broadcast_in_dim with the identity
dimensions that keeps the type; a concatenate with one non-empty operand (a
dynamic_update_slice of an empty update is among shlo-simplify's cases:
IREE's vulkan compile of one after a sort failed, seed 67 program 917). A result is replaced
only by a value of its own type; the folded op is erased when nothing reads it.
`identity_source` answers the question for one value without changing the IR.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
from iree.compiler import ir

from ..base import Pass, binary_body, is_inside, nested_ops
from ..custom_calls.cumulative_window import IDENTITIES, is_identity
from ..lib.builders import erase_unread
from ..lib.expr import element_of, float_info, is_float
from ..shapes.refine_fold import int_attr, ints
from .simplify import EXISTING_VALUE_RULES, all_elements
from .simplify_fold import array_of


def _operand_if(condition: Callable[[ir.Operation], bool]):
    """A rule that returns the op's first operand when `condition(op)` holds."""
    return lambda op: [op.operands[0] if condition(op) else None]


def _unchanged(op: ir.Operation) -> list:
    """The operand, which the caller takes only when its type is the result's."""
    return [op.operands[0]]


def _static(op: ir.Operation) -> bool:
    return ir.RankedTensorType(op.operands[0].type).has_static_shape


def _identity_dims(name: str, static: bool = False):
    """The operand when the op's `name` dimensions are 0, 1, ... (and, if `static`, its
    shape is static: a dynamic broadcast may still grow a size-1 dimension)."""
    def rule(op):
        dims = ints(op, name)
        keep = dims == list(range(len(dims))) and (_static(op) or not static)
        return [op.operands[0] if keep else None]
    return rule


def _concatenate(op):
    dim = int_attr(op, "dimension")
    kept = [v for v in op.operands if ir.RankedTensorType(v.type).shape[dim] != 0]
    return [op.operands[0] if len(op.operands) == 1 else kept[0] if len(kept) == 1 else None]


def _real(op):
    x = op.operands[0]
    if not isinstance(ir.RankedTensorType(x.type).element_type, ir.ComplexType):
        return [x]
    source = x.owner
    if (isinstance(source, (ir.Operation, ir.OpView)) and source.name == "stablehlo.convert"
            and source.operands[0].type == op.results[0].type):
        return [source.operands[0]]         # real(convert(x)) of a real x of the result type
    return [EXISTING_VALUE_RULES["stablehlo.real"](op)]


def _self(op):
    x, y = op.operands
    return [x if x == y else None]


def _self_or_existing(name: str):
    """x for `name`(x, x), else shlo-simplify's rule for `name`."""
    return lambda op: _self(op) if op.operands[0] == op.operands[1] else _existing(name)(op)


def _clamp(op):
    low, x, high = op.operands
    if low == x == high:
        return [x]                          # clamp(x, x, x) (fuzz seed 101 program 294)
    # the type's whole range: the lowest value (-inf) is maximum's identity, the highest minimum's
    whole = is_identity(low, "stablehlo.maximum") and is_identity(high, "stablehlo.minimum")
    return [x if whole else None]


def _bounded(op):
    """x for maximum(x, x), and for maximum by the type's lowest value or minimum by its
    highest (the op's identity, either operand)."""
    x, y = op.operands
    if x == y or is_identity(y, op.name):
        return [x]
    return [y if is_identity(x, op.name) else None]


def _shift(op):
    """A shift by 0."""
    return [op.operands[0] if all_elements(op.operands[1], lambda a: a == 0) else None]


_IEEE_FLOATS = ("f16", "bf16", "f32", "f64")


def _reduce_precision(op):
    """To a format with at least its type's exponent and mantissa bits (f16, bf16, f32,
    f64): the input."""
    element = element_of(op.operands[0])
    if str(element) not in _IEEE_FLOATS:
        return None
    info = float_info(element)
    wide = (int_attr(op, "mantissa_bits") >= info.mantissa_bits
            and int_attr(op, "exponent_bits") >= info.bits - 1 - info.mantissa_bits)
    return [op.operands[0] if wide else None]


def _existing(name: str):
    rule = EXISTING_VALUE_RULES[name]
    return lambda op: [rule(op)]


def _reduce(op):
    """Over no dimensions: every result is its input."""
    n = len(op.results)
    return list(op.operands[:n]) if not ints(op, "dimensions") else None


_UNIT_WINDOW = ("window_dimensions", "window_strides", "base_dilations", "window_dilations")


def _reduce_window(op):
    """Windows of one element each (sizes, strides and dilations 1, no padding) starting from
    the body's identity (-0.0 for a float sum): the result is the input."""
    combine = binary_body(op)
    if len(op.results) != 1 or combine is None or combine.name not in IDENTITIES:
        return None
    unit = all(all(v == 1 for v in ints(op, name)) for name in _UNIT_WINDOW
               if name in op.attributes)
    if "padding" in op.attributes:
        unit = unit and not np.array(ir.DenseIntElementsAttr(op.attributes["padding"])).any()
    init = op.operands[1]
    if not unit or not is_identity(init, combine.name):
        return None
    if combine.name == "stablehlo.add" and is_float(element_of(init)):
        value = array_of(init)
        if value is None or not np.signbit(value).all():
            return None             # +0.0 + -0.0 is +0.0
    return [op.operands[0]]


def _map(op):
    block = op.regions[0].blocks[0]
    returned = list(block.operations)[-1].operation.operands[0]
    if isinstance(returned, ir.BlockArgument) and returned.owner == block:
        return [op.operands[returned.arg_number]]
    return None


def _while(op):
    """A loop whose condition is the constant false runs no trip: results are its operands."""
    condition = array_of(list(op.regions[0].blocks[0].operations)[-1].operation.operands[0])
    return list(op.operands) if condition is not None and not condition.any() else None


def _chosen_branch(op: ir.Operation) -> ir.Block | None:
    """The block a constant-predicate `if`, a constant-index or one-branch `case` runs, else
    None."""
    if op.name == "stablehlo.case" and len(op.regions) == 1:
        return op.regions[0].blocks[0]
    index = array_of(op.operands[0])
    if index is None:
        return None
    value = int(index.reshape(()))
    if op.name == "stablehlo.if":
        region = op.regions[0 if value else 1]
    else:           # an index out of range runs the last branch
        n = len(op.regions)
        region = op.regions[value if 0 <= value < n else n - 1]
    return region.blocks[0]


def _branch(op):
    """Results of a constant `if`/`case` that its branch returns from outside it."""
    block = _chosen_branch(op)
    if block is None:
        return None
    returned = list(block.operations)[-1].operation.operands
    return [None if isinstance(v, ir.OpResult) and is_inside(v.owner.operation, op) else v
            for v in returned]


# op name -> rule(op) -> for each result, the existing value it equals, or None.
RULES = {
    **{name: _existing(name) for name in EXISTING_VALUE_RULES},
    "stablehlo.real": _real,
    "stablehlo.maximum": _bounded, "stablehlo.minimum": _bounded,
    **{name: _shift for name in ("stablehlo.shift_left", "stablehlo.shift_right_logical",
                                 "stablehlo.shift_right_arithmetic")},
    "stablehlo.reduce_precision": _reduce_precision,
    "stablehlo.and": _self_or_existing("stablehlo.and"),
    "stablehlo.or": _self_or_existing("stablehlo.or"),
    "stablehlo.clamp": _clamp,
    "stablehlo.reshape": _operand_if(_static), "stablehlo.bitcast_convert": _unchanged,
    "stablehlo.dynamic_reshape": _operand_if(_static),
    "stablehlo.slice": _unchanged, "stablehlo.dynamic_slice": _operand_if(_static),
    "stablehlo.transpose": _identity_dims("permutation"),
    "stablehlo.broadcast_in_dim": _identity_dims("broadcast_dimensions", static=True),
    "stablehlo.concatenate": _concatenate,
    "stablehlo.reduce": _reduce, "stablehlo.reduce_window": _reduce_window,
    "stablehlo.map": _map, "stablehlo.while": _while,
    "stablehlo.if": _branch, "stablehlo.case": _branch,
}


def _sources(op: ir.Operation) -> list:
    """For each result of `op`: the existing value of its type it equals, or None."""
    rule = RULES.get(op.name)
    try:
        with op.location:
            found = rule(op) if rule is not None else None
    except Exception:        # unexpected input (an unread attribute, a dynamic shape): keep it
        found = None
    if found is None:
        return [None] * len(op.results)
    return [v if v is not None and v.type == r.type else None for v, r in zip(found, op.results)]


def identity_source(value: ir.Value) -> ir.Value | None:
    """The existing value that `value`, a result of an identity op, equals, else None."""
    if not isinstance(value, ir.OpResult):
        return None
    return _sources(value.owner.operation)[value.result_number]


def _inline_constant_branches(root: ir.Operation) -> None:
    """Move the branch an `if`/`case` on a constant runs in front of it, and erase it."""
    for op in nested_ops(root, "stablehlo."):       # inner ones first
        if op.name not in ("stablehlo.if", "stablehlo.case"):
            continue
        with op.location:
            block = _chosen_branch(op)
        if block is None:
            continue
        ops = [o.operation for o in block.operations]
        for inner in ops[:-1]:
            inner.move_before(op)
        for result, value in zip(op.results, ops[-1].operands):
            result.replace_all_uses_with(value)
        op.erase()


@dataclasses.dataclass
class FoldIdentityOps(Pass):
    """Replace ops that return an operand unchanged by it; inline if/case on constants."""

    NAME = "shlo-fold-identity-ops"

    def run(self, op: ir.Operation) -> None:
        _inline_constant_branches(op)
        for o in nested_ops(op, "stablehlo."):
            for result, source in zip(o.results, _sources(o)):
                if source is not None:
                    result.replace_all_uses_with(source)
        erase_unread(op, lambda o: o.name in RULES and all(s is not None for s in _sources(o)))
