"""shlo-reshape-unit-broadcasts: a `broadcast_in_dim` that only inserts dimensions of size 1
(as many elements in as out, its dimensions in order) becomes the `reshape` it is.

IREE 3.13's input conversion applies its StableHLO canonicalizations inside the dialect
conversion, on ops whose operands it has already converted; `x = gather(t, i)` of a 1-D table
(IREE's torch_index_select and a reshape), read by `abs(x)` and by `abs(broadcast_in_dim(x))`
(jax's `abs(x[None])`), came out as an abs of the gather's [N, 1] result typed [N], and the
compile failed ("failed to legalize unresolved materialization", cpu and vulkan; fuzz seed 165
program 132). The same program with a reshape compiles
(docs/iree_gaps.md#shlo-reshape-unit-broadcasts). A reshape that adds unit dimensions is a
view to IREE; the broadcast was a copy. It runs at the end of the pipeline: earlier passes
match broadcasts.
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..op_rules import RulesPass


def _unit_broadcast(op: ir.Operation):
    operand, result = (ir.RankedTensorType(v.type) for v in (op.operands[0], op.results[0]))
    dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
    if not (operand.has_static_shape and result.has_static_shape) or result.rank == operand.rank \
            or math.prod(operand.shape) != math.prod(result.shape) or dims != sorted(set(dims)) \
            or any(operand.shape[i] != result.shape[d] for i, d in enumerate(dims)):
        return None
    return [stablehlo.reshape(op.operands[0], result_type=result)]


@dataclasses.dataclass
class ReshapeUnitBroadcasts(RulesPass):
    """Write a broadcast_in_dim that only inserts unit dimensions as a reshape."""

    NAME = "shlo-reshape-unit-broadcasts"
    RULES = {"stablehlo.broadcast_in_dim": _unit_broadcast}
