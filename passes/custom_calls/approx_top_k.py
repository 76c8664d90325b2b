"""custom_call @ApproxTopK (jax.lax.approx_max_k / approx_min_k) as an exact sort and a slice.

jax emits `stablehlo.custom_call @ApproxTopK(inputs..., inits...)` with the comparator in
`called_computations` and `mhlo.backend_config = {top_k, reduction_dim, aggregate_to_topk,
recall_target, reduction_input_size_override, is_fallback}`; under shape polymorphism the
same call is `@stablehlo.dynamic_approx_top_k(inputs..., inits..., k, shapes...)`. Off TPU,
XLA computes it with its fallback: sort the inputs along reduction_dim with the comparator
and keep the first elements, as many as the result has (k when aggregate_to_topk, otherwise
XLA's approximate output size, which the result type already carries). This is that fallback:
an exact top-k satisfies every recall target. The sort is stable (ties keep the lower index)
and sits behind an optimization barrier, as chlo.top_k's does, so that IREE does not turn sort
+ slice into its own top-k, which is not stable. At run-time sizes the slice's limits are the
results' shape operand. The init values only matter to the TPU algorithm and are not read.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.errors import PassError
from ..lib import builders as extras
from ..lib.expr import Num
from ..chlo.structure import inline_block, leading
from .registry import register_custom_call
from ..shapes.refine_rules import called_function


def _reduction_dim(op: ir.Operation, rank: int) -> int:
    if "mhlo.backend_config" not in op.attributes:
        raise PassError("stablehlo.custom_call @ApproxTopK: no mhlo.backend_config dictionary "
                        "(reduction_dim, top_k, ...) to read", at=op)
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    dim = ir.IntegerAttr(config["reduction_dim"]).value if "reduction_dim" in config else -1
    return dim + rank if dim < 0 else dim


def approx_top_k(op: ir.Operation, *operands: ir.Value) -> list[ir.Value]:
    """The first elements of the inputs sorted along reduction_dim by the comparator."""
    inputs = list(operands[:len(op.results)])
    t = ir.RankedTensorType(inputs[0].type)
    dim = _reduction_dim(op, t.rank)
    body = called_function(op).regions[0].blocks[0]
    ordered = extras.sort(inputs, dim, True, lambda *s: inline_block(body, list(s))[0])
    result = ir.RankedTensorType(op.results[0].type)
    if t.has_static_shape and result.has_static_shape:
        limits = list(t.shape)
        limits[dim] = result.shape[dim]
        return leading(ordered, limits)
    # run-time sizes (stablehlo.dynamic_approx_top_k): the results' shape is an operand
    return leading(ordered, Num(_result_shape(op)).to("i64").value,
                   [r.type for r in op.results])


def _result_shape(op: ir.Operation) -> ir.Value:
    """The first result's shape operand (`indices_of_shape_operands`)."""
    if "indices_of_shape_operands" not in op.attributes:
        raise PassError("stablehlo.custom_call: an approximate top-k with run-time sizes "
                        "needs its results' shapes as operands (indices_of_shape_operands)",
                        at=op)
    first = int(ir.DenseIntElementsAttr(op.attributes["indices_of_shape_operands"])[0])
    return op.operands[first]


register_custom_call("ApproxTopK", approx_top_k, static_shapes_only=True)
register_custom_call("stablehlo.dynamic_approx_top_k", approx_top_k)
