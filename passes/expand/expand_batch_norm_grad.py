"""shlo-expand-batch-norm-grad: stablehlo.batch_norm_grad as the StableHLO the spec defines it by.

IREE has no lowering for batch_norm_grad (docs/iree_gaps.md#shlo-expand-batch-norm-grad).
The spec gives the op as a decomposition (the
one of XLA's batchnorm_expander.cc); this pass emits exactly it, with F the feature dimension
and every sum a `stablehlo.reduce` (add) over all other dimensions, broadcast back along F:

    centered = operand - mean            stddev = sqrt(variance + epsilon)
    n = size(operand) / dim(operand, F)  (elements per feature)
    i6 = grad_output * n - sum(grad_output) - sum(grad_output * centered) * centered
         / (variance + epsilon)
    grad_operand = scale / stddev / n * i6
    grad_scale = sum(grad_output * centered / stddev)
    grad_offset = sum(grad_output)

f32 and f64 compute in their own type; the narrower floats (f16, bf16, ...) compute in f32 and
round the results back. epsilon (an f32 attribute) is first rounded to the element type, as
the spec's `constant(epsilon, element_type(operand))` does. Static shapes only (a clear error
otherwise: the element count per feature is a compile-time constant).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.types import element_dtype
from shlo.errors import PassError
from ..op_rules import RulesPass
from ..lib.expr import NATIVE, Num, element_of, sqrt, sum_over


def _feature_sum(x: Num, feature: int) -> Num:
    """The spec's compute_sum: x summed over every dimension but `feature` (a 1-D tensor)."""
    return sum_over(x, [d for d in range(x.type.rank) if d != feature])


def _along_feature(v: Num, feature: int, like: Num) -> Num:
    """A 1-D per-feature tensor broadcast to `like`'s shape along `feature`."""
    return Num(stablehlo.broadcast_in_dim(v.value, broadcast_dimensions=[feature],
                                          result_type=like.type))


def batch_norm_grad(op: ir.Operation) -> list[ir.Value]:
    operand_type = ir.RankedTensorType(op.operands[0].type)
    if not operand_type.has_static_shape:
        raise PassError(f"shlo-expand-batch-norm-grad: stablehlo.batch_norm_grad needs a "
                        f"static operand shape, got {operand_type} (the elements per feature "
                        f"are a compile-time constant); refine the shapes first", at=op)
    element = operand_type.element_type
    work = element if str(element) in NATIVE else ir.F32Type.get()
    feature = ir.IntegerAttr(op.attributes["feature_index"]).value
    epsilon = float(np.asarray(ir.FloatAttr(op.attributes["epsilon"]).value)
                    .astype(element_dtype(element)))
    operand, scale, mean, variance, grad_output = (Num(v).to(work) for v in op.operands)

    per_feature = operand_type.shape[feature]
    elements_per_feature = float(np.prod(operand_type.shape) // per_feature) \
        if per_feature else 0.0
    scale_b, mean_b, variance_b = (_along_feature(v, feature, operand)
                                   for v in (scale, mean, variance))
    centered = operand - mean_b
    variance_eps = variance_b + epsilon
    stddev = sqrt(variance_eps)
    normalized = centered / stddev

    n = operand.like(elements_per_feature)
    i1 = grad_output * n
    i2 = _along_feature(_feature_sum(grad_output, feature), feature, operand)
    i3 = _along_feature(_feature_sum(grad_output * centered, feature), feature, operand)
    i5 = i3 * centered / variance_eps
    i6 = i1 - i2 - i5
    grad_operand = scale_b / stddev / n * i6
    grad_scale = _feature_sum(grad_output * normalized, feature)
    grad_offset = _feature_sum(grad_output, feature)
    return [v.to(element_of(r)).value
            for v, r in zip((grad_operand, grad_scale, grad_offset), op.results)]


RULES = {"stablehlo.batch_norm_grad": batch_norm_grad}


@dataclasses.dataclass
class ExpandBatchNormGrad(RulesPass):
    """Decompose stablehlo.batch_norm_grad into reduce and elementwise ops (the spec's form)."""

    NAME = "shlo-expand-batch-norm-grad"
    RULES = RULES
