"""shlo-round-narrow-arithmetic: every bf16 and 8-bit float arithmetic result is rounded to
its type, as the spec says, before the next op reads it.

IREE computes bf16 and 8-bit float arithmetic in f32 (no CPU or GPU here has it) and gets
the rounding back wrong in two ways (docs/iree_gaps.md#shlo-round-narrow-arithmetic):

* inside a fused dispatch it drops the rounding between two ops (an f32 -> bf16 -> f32 round
  trip folds away, explicit converts included), so a chain of bf16 ops ran in f32 and was
  rounded once at its end, unlike the spec (and XLA and the reference interpreter, which
  round every op), on CPU and Vulkan;
* an 8-bit float result just below the type's smallest normal becomes 0 (the conversion bug
  shlo-round-narrow-float-converts works around).

f16 and f32 arithmetic round per op already. Here each such op that rounds (add, multiply,
sqrt, exp, ...) computes in f32 and its result is rounded by ops IREE cannot fold: to bf16 on
its bits (shlo-round-narrow-float-converts' `to_bf16_on_bits`: the top half of the f32 plus
the round-to-nearest-even carry, bitcast; a NaN stays a quiet NaN), to an 8-bit float on its
grid in f32 (`round_to_grid`) and then an exact convert. The bits are also fast: rounding
through stablehlo.reduce_precision and a convert to bf16 made a bf16 layernorm 4.6x slower
(IREE's f32 -> bf16 conversion is long on AVX2), on the bits it costs 15 %. An f32 result rounded once is the correctly rounded result for +, -, *, / and sqrt
(24 >= 2 p + 2 bits for p <= 8). A convert to bf16 from f32 or f16 is rounded the same way,
from f64 first on bf16's grid in f64 (exact in f32 then). A `reduce` of these types read by
another op is accumulated in f32 (shlo-accumulate-in-f32 does that for reduce_window) and its
result rounded. Ops inside a reducer's body (reduce, reduce_window, scatter, sort, ...) stay:
the spec leaves the accumulation order, and XLA its precision, to the implementation. A bf16
op whose only user is the function's return needs no rounding (storing rounds) and stays.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..numerics.accumulate_in_f32 import widened_in_f32
from ..lib.expr import Num, attributes, element_of, float_info, is_float, with_element
from ..op_rules import CANONICAL, Rule, RulesPass
from .round_narrow_float_converts import narrow_to_f32, round_to_grid, to_bf16_on_bits

ROUNDING_OPS = ("add", "subtract", "multiply", "divide", "power", "atan2", "sqrt", "rsqrt",
                "cbrt", "exponential", "exponential_minus_one", "log", "log_plus_one",
                "logistic", "sine", "cosine", "tan", "tanh")
# ops whose region combines values: its arithmetic is an accumulation, not a result
REDUCERS = {"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter",
            "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.all_reduce",
            "stablehlo.reduce_scatter"}


def _is_bf16(value: ir.Value) -> bool:
    return str(element_of(value)) == "bf16"


def _rounds_in_f32(value: ir.Value) -> bool:
    """bf16 and the signed floats of 8 bits or fewer: IREE computes them in f32."""
    element = element_of(value)
    if not is_float(element):
        return False
    info = float_info(element)
    return str(element) == "bf16" or (info.bits <= 8 and info.has_negative)


def _in_reducer(op: ir.Operation) -> bool:
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        if parent.name in REDUCERS:
            return True
        parent = parent.parent
    return False


def _only_returned(op: ir.Operation) -> bool:
    """A bf16 result only returned: storing it rounds it right (an 8-bit float's store is the
    conversion that flushes values below the smallest normal)."""
    return all(_is_bf16(result) for result in op.results) and all(
        use.owner.name == "func.return" for result in op.results for use in result.uses)


def _rounded(wide: ir.Value, result_type: ir.Type) -> ir.Value:
    """An f32 value rounded to nearest even to `result_type`'s element, by ops IREE keeps."""
    element = ir.RankedTensorType(result_type).element_type
    if str(element) == "bf16":
        return to_bf16_on_bits(Num(wide)).value
    narrow = stablehlo.convert(round_to_grid(Num(wide), element).value, result_type=result_type)
    narrow.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return narrow


def _to_f32(value: ir.Value) -> ir.Value:
    x = Num(value)
    return (x.to("f32") if str(x.element) == "bf16" else narrow_to_f32(x)).value


def _arithmetic(op: ir.Operation):
    """A bf16 or 8-bit float op that rounds: in f32, rounded to its type."""
    result = op.results[0]
    if not _rounds_in_f32(result) or _only_returned(op) or _in_reducer(op):
        return None
    wide = [_to_f32(v) if _rounds_in_f32(v) else v for v in op.operands]
    f32 = ir.Operation.create(op.name, results=[with_element(result.type, ir.F32Type.get())],
                              operands=wide, attributes=attributes(op)).result
    return [_rounded(f32, result.type)]


def _convert(op: ir.Operation):
    """A convert to bf16 from a wider float: rounded on the bits."""
    x, result = op.operands[0], op.results[0]
    source = element_of(x)
    if (CANONICAL in op.attributes or not _is_bf16(result) or not is_float(source)
            or str(source) == "bf16" or _only_returned(op) or _in_reducer(op)):
        return None
    if ir.FloatType(source).width < 16:
        return None                     # every f8/f6/f4 value is a bf16 value
    wide = Num(x) if str(source) in ("f32", "f64") else Num(x).to("f32")
    return [to_bf16_on_bits(wide).value]


def _reduce(op: ir.Operation):
    """A reduce of bf16 or 8-bit floats: in f32 (operands, inits, body), each such result
    rounded."""
    if (not any(_rounds_in_f32(v) for v in op.operands) or _only_returned(op)
            or _in_reducer(op)):
        return None
    results = widened_in_f32(op, stablehlo.reduce)
    return [_rounded(wide, old.type) if _rounds_in_f32(old)
            else Num(wide).to(element_of(old)).value if wide.type != old.type else wide
            for wide, old in zip(results, op.results)]


RULES: dict[str, Rule] = {f"stablehlo.{name}": _arithmetic for name in ROUNDING_OPS}
RULES["stablehlo.convert"] = _convert
RULES["stablehlo.reduce"] = _reduce


@dataclasses.dataclass
class RoundNarrowArithmetic(RulesPass):
    """Round every bf16 and 8-bit float arithmetic result to its type by ops IREE keeps."""

    NAME = "shlo-round-narrow-arithmetic"
    RULES = RULES
