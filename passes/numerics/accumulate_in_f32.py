"""shlo-accumulate-in-f32: dot_general, convolution and reduce_window on floats narrower than
f32 (f16, bf16, the f8 types) accumulate in f32 and round each result once, as XLA does.

The spec leaves the accumulation type of these ops to the implementation (dot_general's
`algorithm` names it where a program cares). IREE accumulates a convolution, a batched
dot_general and an expanded cumulative sum in the narrow type, rounding after every step, far
less accurate than XLA (docs/iree_gaps.md#shlo-accumulate-in-f32).

Here the narrow operands feed an op with an f32 result (dot_general and convolution take
mixed types; a reduce_window converts its operands and inits and computes its body in f32),
and a convert rounds the result to its type. Only a reduce_window that sums (its body adds,
besides selecting) is widened: one whose body only selects (max, min, compare, select) is
exact in any type, and one that computes more than sums (jax's cumlogsumexp: exp, log1p)
rounds each op of its body, as XLA and the reference interpreter do (widened, f16's
cumlogsumexp came out 4 ulps from both, beyond StableHLO's testdata tolerance of 3). A
dot_general with an explicit `algorithm` stays too (shlo-legalize-dot-algorithm honours it). `reduce` needs no rewrite:
IREE's CPU code accumulates it in f32 already (the same values as XLA's).

A dot_general that contracts nothing (each result one product) takes operands of its result's
type: IREE's input conversion miscompiled one of narrower operands (`_one_product_in_result_type`).
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib import builders as extras
from ..lib.expr import (Num, attributes, bit_width, clone_retyped, element_of, is_float,
                        is_narrow_float, with_element)
from ..op_rules import RulesPass

# body ops that pick one of their operands: exact in every float type
_SELECTING = {"stablehlo.maximum", "stablehlo.minimum", "stablehlo.compare", "stablehlo.select",
              "stablehlo.and", "stablehlo.or", "stablehlo.not", "stablehlo.constant",
              "stablehlo.return"}


def _wide(t: ir.Type) -> ir.Type:
    narrow = is_narrow_float(ir.RankedTensorType(t).element_type)
    return with_element(t, ir.F32Type.get()) if narrow else t


def _grouped(op: ir.Operation) -> bool:
    return op.name == "stablehlo.convolution" and any(
        ir.IntegerAttr(op.attributes[k]).value > 1 for k in
        ("feature_group_count", "batch_group_count") if k in op.attributes)


def _contracts_nothing(op: ir.Operation) -> bool:
    """Whether `op` is a dot_general whose every result is one product (no contraction)."""
    return op.name == "stablehlo.dot_general" and not arguments(op)[1].get(
        "lhs_contracting_dimensions")


def _widened_to(value: ir.Value, element: ir.Type) -> ir.Value:
    """`value` converted to `element` where its elements are narrower numbers of that kind."""
    own = element_of(value)
    same_kind = (is_float(own) and is_float(element)) or (
        isinstance(own, ir.IntegerType) and isinstance(element, ir.IntegerType))
    return Num(value).to(element).value if same_kind and bit_width(own) < bit_width(element) \
        else value


def _one_product_in_result_type(op: ir.Operation):
    """A dot_general that contracts nothing, of operands narrower than its result (jax's
    preferred_element_type): the same op of operands converted to the result's type. IREE
    rewrote such a product into a multiply of ill-typed operands when an operand's reshape
    had another reader ('failed to legalize operation stablehlo.multiply', cpu and vulkan;
    fuzz seed 165 program 166). Widening is exact: the values are the same."""
    if not _contracts_nothing(op):
        return None
    element = element_of(op.results[0])
    operands = [_widened_to(v, element) for v in op.operands]
    if all(new == old for new, old in zip(operands, op.operands)):
        return None
    return [ir.Operation.create(op.name, results=[op.results[0].type], operands=operands,
                                attributes=attributes(op)).result]


def _product_in_f32(op: ir.Operation):
    """A dot_general or convolution with a narrow float result: the same op with an f32
    result, converted. A grouped convolution takes f32 operands, each behind a fusion barrier
    (IREE fails to compile an f16 one with an f32 result on Vulkan, and computes f16 -> f32
    converts fused into a grouped one wrongly there; docs/iree_gaps.md#shlo-accumulate-in-f32);
    a dot_general that contracts nothing takes f32 operands (`_one_product_in_result_type`);
    products of narrow floats are exact in f32, so the values are the same."""
    result = op.results[0]
    if "algorithm" in op.attributes:
        return None
    if not is_narrow_float(element_of(result)):
        return _one_product_in_result_type(op)
    operands = list(op.operands)
    if _grouped(op) and all(is_narrow_float(element_of(v)) for v in operands):
        operands = extras.fence([Num(v).to("f32").value for v in operands])
    elif _contracts_nothing(op):
        operands = [_widened_to(v, ir.F32Type.get()) for v in operands]
    wide = ir.Operation.create(op.name, results=[with_element(result.type, ir.F32Type.get())],
                               operands=operands, attributes=attributes(op)).result
    return [Num(wide).to(element_of(result)).value]


def widened_in_f32(op: ir.Operation, builder) -> list[ir.Value]:
    """The results of a reduce or reduce_window (`builder`) computed in f32: its narrow float
    operands and inits converted, its body cloned with f32 types."""
    body = op.regions[0].blocks[0]
    wide = [Num(v).to("f32").value if is_narrow_float(element_of(v)) else v for v in op.operands]
    half = len(wide) // 2
    _, kw = arguments(op)
    kw.pop("result_type", None)
    kw["body"] = lambda *args: clone_retyped(body, args, _wide)
    results = builder(wide[:half], wide[half:], **kw)
    return list(results) if isinstance(results, (list, tuple)) else [results]


def _window_in_f32(op: ir.Operation):
    """A reduce_window that sums narrow floats: operands, inits and body in f32, each result
    converted."""
    if not any(is_narrow_float(element_of(v)) for v in op.operands):
        return None
    names = {inner.name for inner in op.regions[0].blocks[0].operations}
    if names <= _SELECTING or not names <= _SELECTING | {"stablehlo.add"}:
        return None
    return [Num(r).to(element_of(old)).value if r.type != old.type else r
            for r, old in zip(widened_in_f32(op, stablehlo.reduce_window), op.results)]


@dataclasses.dataclass
class AccumulateInF32(RulesPass):
    """Accumulate narrow-float dot_general, convolution and reduce_window in f32."""

    NAME = "shlo-accumulate-in-f32"
    RULES = {
        "stablehlo.dot_general": _product_in_f32,
        "stablehlo.dot": _product_in_f32,
        "stablehlo.convolution": _product_in_f32,
        "stablehlo.reduce_window": _window_in_f32,
    }
