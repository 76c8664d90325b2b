"""shlo-legalize-chlo: rewrite CHLO ops into StableHLO, as a table of Python rewrite rules.

Each rule takes the CHLO op (built under its location, inserted before it) and
returns the StableHLO values that replace its results. The rules run through
MLIR's greedy pattern driver (`iree.compiler.rewrite`). A CHLO op with no rule
makes the pass fail at that op with a message naming it: nothing is left for
IREE to finish silently.

Element types: f32 computes directly; f16 and bf16 compute in f32 and round
back; f64 math needs its own (double-precision) approximations and is rejected
with an error until they are written.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir, rewrite

from ..dialect import stablehlo
from ..errors import PassError
from .base import Pass, nested_ops

# erf(x) = x * P(x^2) / Q(x^2) on x clamped to [-4, 4] (|erf| rounds to 1 beyond): the f32
# rational approximation used by Eigen and XLA. Measured against mpmath: <= 3 ULP in f32.
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
          -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
          -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
          -7.37332916720468e-03, -1.42647390514189e-02)


def _constant(value: float, like: ir.Value) -> ir.Value:
    return stablehlo.constant(value, result_type=like.type)


def _horner(x: ir.Value, coefficients) -> ir.Value:
    acc = _constant(coefficients[0], x)
    for c in coefficients[1:]:
        acc = stablehlo.add(stablehlo.multiply(acc, x), _constant(c, x))
    return acc


def _erf_f32(x: ir.Value) -> ir.Value:
    clamped = stablehlo.clamp(_constant(-4.0, x), x, _constant(4.0, x))
    x2 = stablehlo.multiply(clamped, clamped)
    ratio = stablehlo.divide(_horner(x2, _ERF_P), _horner(x2, _ERF_Q))
    return stablehlo.multiply(clamped, ratio)   # x * (P/Q): one rounding, exact for subnormals


def _in_f32(name: str, compute):
    """A unary float rule: f32 directly, f16/bf16 through f32, others rejected."""
    def rule(op: ir.Operation):
        x = op.operands[0]
        element = ir.RankedTensorType(x.type).element_type.maybe_downcast()
        if isinstance(element, ir.F32Type):
            return [compute(x)]
        if isinstance(element, (ir.F16Type, ir.BF16Type)):
            f32 = ir.RankedTensorType.get(ir.RankedTensorType(x.type).shape, ir.F32Type.get())
            wide = stablehlo.convert(x, result_type=f32)
            return [stablehlo.convert(compute(wide), result_type=x.type)]
        raise PassError(f"shlo-legalize-chlo: chlo.{name} on {element} is not supported: "
                        f"only f16, bf16 and f32 have a lowering so far", at=op)
    return rule


def _enum_name(attr: ir.Attribute) -> str:
    return str(attr).rstrip(">").split()[-1]


def _broadcast_operands(op: ir.Operation) -> list[ir.Value]:
    """Both operands broadcast (numpy-style, or by `broadcast_dimensions`) to the result shape."""
    result = ir.RankedTensorType(op.results[0].type)
    if not result.has_static_shape:
        raise PassError(f"shlo-legalize-chlo: {op.name} with a dynamic result "
                        f"{result} is not supported yet: only static shapes are", at=op)
    lhs, rhs = op.operands[0], op.operands[1]
    mapping = None
    if "broadcast_dimensions" in op.attributes:
        mapping = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"])]
    low_rank = min(ir.RankedTensorType(lhs.type).rank, ir.RankedTensorType(rhs.type).rank)
    out = []
    for value in (lhs, rhs):
        vtype = ir.RankedTensorType(value.type)
        if vtype.shape == result.shape:
            out.append(value)
            continue
        if mapping is not None and vtype.rank == low_rank and vtype.rank < result.rank:
            dims = mapping
        else:
            dims = list(range(result.rank - vtype.rank, result.rank))
        target = ir.RankedTensorType.get(result.shape, vtype.element_type)
        out.append(stablehlo.broadcast_in_dim(value, broadcast_dimensions=dims, result_type=target))
    return out


def _broadcasting(builder):
    def rule(op: ir.Operation):
        return [builder(*_broadcast_operands(op))]
    return rule


def _compare(op: ir.Operation):
    lhs, rhs = _broadcast_operands(op)
    kwargs = {"comparison_direction": _enum_name(op.attributes["comparison_direction"])}
    if "compare_type" in op.attributes:
        kwargs["compare_type"] = _enum_name(op.attributes["compare_type"])
    return [stablehlo.compare(lhs, rhs, **kwargs)]


RULES = {
    "chlo.erf": _in_f32("erf", _erf_f32),
    "chlo.broadcast_compare": _compare,
    **{f"chlo.broadcast_{name}": _broadcasting(getattr(stablehlo, builder)) for name, builder in (
        ("add", "add"), ("subtract", "subtract"), ("multiply", "multiply"),
        ("divide", "divide"), ("maximum", "maximum"), ("minimum", "minimum"),
        ("power", "power"), ("remainder", "remainder"), ("and", "and_"), ("or", "or_"),
        ("xor", "xor"), ("atan2", "atan2"), ("complex", "complex"),
        ("shift_left", "shift_left"), ("shift_right_arithmetic", "shift_right_arithmetic"),
        ("shift_right_logical", "shift_right_logical"))},
}


def _pattern(rule):
    def match_and_rewrite(op, rewriter):
        with rewriter.ip, op.location:
            values = rule(op.operation)
        rewriter.replace_op(op, values)
    return match_and_rewrite


@dataclasses.dataclass
class LegalizeChlo(Pass):
    """Legalize CHLO ops to StableHLO with Python rewrite rules."""

    NAME = "shlo-legalize-chlo"

    def run(self, op: ir.Operation) -> None:
        missing = [o for o in nested_ops(op, "chlo.") if o.name not in RULES]
        if missing:
            raise PassError(f"shlo-legalize-chlo: no lowering for '{missing[0].name}' yet "
                            f"({len(RULES)} CHLO ops are lowered so far)", at=missing[0])
        errors: list[PassError] = []
        patterns = rewrite.RewritePatternSet(op.context)
        for name, rule in RULES.items():
            patterns.add(name, _guarded(_pattern(rule), errors))
        config = rewrite.GreedyRewriteConfig()
        config.enable_folding = False
        rewrite.apply_patterns_and_fold_greedily(op, patterns.freeze(), config)
        if errors:
            raise errors[0]


def _guarded(pattern, errors):
    """Exceptions must not cross the C++ pattern driver: record them and report no match."""
    def guarded(op, rewriter):
        try:
            return pattern(op, rewriter)
        except PassError as e:
            errors.append(e)
        except Exception as e:
            errors.append(PassError(f"shlo-legalize-chlo: {type(e).__name__}: {e}", at=op.operation))
        return True
    return guarded
