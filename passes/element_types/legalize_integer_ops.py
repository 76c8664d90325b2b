"""shlo-legalize-integer-ops: rewrite the integer ops IREE rejects or computes wrongly into
forms it gets right, with the spec's semantics (docs/iree_gaps.md#shlo-legalize-integer-ops).

* `add` of booleans (i1) is logical OR in the spec; IREE computes XOR (true + true = false):
  it becomes stablehlo.or;
* a `convert` of booleans to numbers read by a matrix-vector product sign-extends them on
  CPU (true -> -1: `(a > 0).astype(int32) @ ones` gave minus the counts, and so did f32
  weights; a matrix-matrix product and other users were right), and on Vulkan gives wrong
  integers or fails to compile for floats ('arith.sitofp' of vector<2xi1>): it becomes a
  select of 1 and 0 (complex results keep the convert);
* a `dot_general` of booleans into numbers (jax's `preferred_element_type`) fails to compile
  (CPU: "failed to legalize unresolved target materialization" of the i1 operands' data-tiling
  encoding; Vulkan, f32: "failed to legalize operation 'arith.sitofp'" of vector<4xi1>): its
  operands become selects of 1 and 0 in the result's type (exact: the sum counts the pairs);
* `reverse` of unsigned integers fails to compile (IREE's linalg.generic keeps the `ui`
  type): reversing only moves bits, so it runs on the signless type of the same width
  between two bitcast_converts;
* `reverse` over no dimensions (of a rank-0 tensor, found by shlo-fuzz) fails to legalize, of
  any type: a reverse that moves nothing becomes its operand;
* a grouped `convolution` (feature or batch groups) of unsigned integers with a constant
  kernel crashed IREE's compiler (SIGSEGV reshaping the unsigned constant: ui8 and ui32,
  shlo-fuzz seed 161 program 126): where its operands and result are one unsigned type, it
  runs on the signless type of that width between bitcast_converts (exact: products and sums
  of one width wrap alike, signed or not).

(Unsigned reduce_window, e.g. cumsum of ui32, is fixed by shlo-expand-reduce-window.)
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib.expr import Num, attributes, const, element_of, is_complex, select, with_element
from ..op_rules import RulesPass
from ..shapes.refine_fold import int_attr


def _is_bool(value: ir.Value) -> bool:
    t = element_of(value).maybe_downcast()
    return isinstance(t, ir.IntegerType) and t.width == 1


def _unsigned(value: ir.Value):
    t = element_of(value).maybe_downcast()
    return t if isinstance(t, ir.IntegerType) and t.is_unsigned else None


def _bool_add(op: ir.Operation):
    lhs, rhs = op.operands
    if not _is_bool(lhs):
        return None
    return [stablehlo.or_(lhs, rhs)]


def _ones_and_zeros(x: ir.Value, element: ir.Type) -> ir.Value:
    """Booleans `x` as 1 and 0 of `element`: a select."""
    return select(Num(x), Num(const(1, x, element)), Num(const(0, x, element))).value


def _bool_convert(op: ir.Operation):
    x = op.operands[0]
    element = ir.RankedTensorType(op.results[0].type).element_type
    if not _is_bool(x) or str(element) == "i1" or is_complex(element):
        return None
    return [_ones_and_zeros(x, element)]


def _bool_dot(op: ir.Operation):
    (lhs, rhs), options = arguments(op, with_result_type=True)
    element = ir.RankedTensorType(op.results[0].type).element_type
    if not (_is_bool(lhs) and _is_bool(rhs)) or str(element) == "i1" or is_complex(element):
        return None
    lhs, rhs = (_ones_and_zeros(x, element) for x in (lhs, rhs))
    return [stablehlo.dot_general(lhs, rhs, **options)]


def _signless(x: ir.Value) -> ir.Value:
    t = _unsigned(x)
    return stablehlo.bitcast_convert(
        x, result_type=with_element(x.type, ir.IntegerType.get_signless(t.width)))


def _unsigned_grouped_convolution(op: ir.Operation):
    """A grouped convolution whose operands and result are one unsigned type, on the signless
    type between bitcast_converts."""
    lhs, rhs = op.operands
    t = _unsigned(op.results[0])
    groups = [int_attr(op, name) for name in ("feature_group_count", "batch_group_count")]
    if t is None or max(groups) == 1 or element_of(lhs) != t or element_of(rhs) != t:
        return None
    result = ir.RankedTensorType(op.results[0].type)
    signed = ir.Operation.create(
        "stablehlo.convolution",
        results=[with_element(result, ir.IntegerType.get_signless(t.width))],
        operands=[_signless(lhs), _signless(rhs)],
        attributes=attributes(op)).result
    return [stablehlo.bitcast_convert(signed, result_type=result)]


def _reverse(op: ir.Operation):
    """A reverse that moves nothing (no dimensions, or only ones of size 0 or 1) is its operand;
    an unsigned one runs on the signless type."""
    x = op.operands[0]
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    if all(ir.RankedTensorType(x.type).shape[d] in (0, 1) for d in dims):
        return [x]
    t = _unsigned(x)
    if t is None:
        return None
    reversed_ = stablehlo.reverse(_signless(x), dimensions=dims)
    return [stablehlo.bitcast_convert(reversed_, result_type=with_element(x.type, t))]


@dataclasses.dataclass
class LegalizeIntegerOps(RulesPass):
    """Rewrite boolean add to or, boolean converts and the operands of boolean products into
    numbers to selects, a reverse that moves nothing to its operand and unsigned reverse to a
    signless reverse."""

    NAME = "shlo-legalize-integer-ops"
    RULES = {
        "stablehlo.add": _bool_add,
        "stablehlo.convert": _bool_convert,
        "stablehlo.convolution": _unsigned_grouped_convolution,
        "stablehlo.dot_general": _bool_dot,
        "stablehlo.reverse": _reverse,
    }
