"""shlo-expand-elementwise-maps: a stablehlo.map whose body is elementwise ops and scalar
constants as those ops on whole tensors (the map's own semantics: the body per element).

Then every later pass sees the ops a map computes. Left in the body, shlo-accurate-math's
expansions (a sine's table lookup: a gather) made the body no longer elementwise, and
Vulkan's rule for x - x (vk-self-difference) never saw a map's `x - x` of one operand read
twice: sin(x - x) of x = inf was 0 on Vulkan, not NaN (fuzz seed 114 program 374). Run early
in the default pipeline, after CHLO's legalization, for every target; the Vulkan rules apply
the same rewrite to maps that later passes make (vk-elementwise-map,
docs/iree_gaps.md#vk-elementwise-map-maps-of-elementwise-ops).
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib.elementwise import ELEMENTWISE_OPS
from ..lib.expr import attributes, clone_retyped
from ..op_rules import RulesPass


def _splat_scalar(op: ir.Operation) -> bool:
    return op.name == "stablehlo.constant" and ir.DenseElementsAttr(
        op.attributes["value"]).is_splat


def map_as_tensor_ops(op: ir.Operation):
    """A static-shape stablehlo.map whose body has only elementwise ops and scalar constants:
    the body's ops on the whole operands (the map's own semantics: the body per element),
    else None."""
    result = ir.RankedTensorType(op.results[0].type)
    body = op.regions[0].blocks[0]
    if not result.has_static_shape or not all(
            o.name in ELEMENTWISE_OPS or _splat_scalar(o) or o.name == "stablehlo.return"
            for o in body.operations):
        return None
    shape = list(result.shape)

    def wide(t: ir.Type) -> ir.RankedTensorType:
        return ir.RankedTensorType.get(shape, ir.RankedTensorType(t).element_type)

    def spread(v: ir.Value) -> ir.Value:
        # a scalar from outside the body (CSE shares constants with the function): broadcast
        return v if v.type == wide(v.type) else stablehlo.broadcast_in_dim(
            v, broadcast_dimensions=[], result_type=wide(v.type))

    def build(inner: ir.Operation, operands: list) -> list:
        types = [wide(r.type) for r in inner.results]
        if inner.name == "stablehlo.constant":
            scalar = ir.DenseElementsAttr(inner.attributes["value"]).get_splat_value()
            return [stablehlo.constant(ir.DenseElementsAttr.get_splat(types[0], scalar))]
        return list(ir.Operation.create(inner.name, results=types,
                                        operands=[spread(v) for v in operands],
                                        attributes=attributes(inner)).results)
    return [spread(v) for v in clone_retyped(body, list(op.operands), wide, build)]


class ExpandElementwiseMaps(RulesPass):
    """Compute a map of elementwise ops as those ops on whole tensors."""

    NAME = "shlo-expand-elementwise-maps"
    RULES = {"stablehlo.map": map_as_tensor_ops}
