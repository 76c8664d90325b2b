"""shlo-dot-before-broadcast: a dot_general of an operand broadcast along its free dimensions
is the dot_general of the smaller operand, broadcast:
dot(broadcast(v), w) -> broadcast(dot(v, w)).

jax writes `jnp.broadcast_to(v, (m, k)) @ w` (and a bias row or a token's embedding repeated
over a batch) so. IREE 3.13's llvm-cpu compile with data tiling crashed on such a product
(SIGSEGV in MaterializeDeviceEncoding: a broadcast vector fused into the matmul's encoding;
docs/iree_gaps.md#shlo-dot-before-broadcast), which killed the calling process; the product
also did m times the work it needs. A free dimension counts as broadcast when the broadcast's
operand does not map to it or maps a size-1 dimension to it; static shapes only.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..base import defined_by
from ..expand.index_vectors import is_static, shape_of
from ..op_rules import RulesPass
from ..shapes.refine_fold import ints


def narrowed(value: ir.Value, position: dict[int, int]) -> ir.Value:
    """A broadcast_in_dim `value` with only its result dimensions in `position` (the others
    it only broadcasts), each at its new place: the broadcast of its operand into those."""
    op = value.owner
    source, dims, shape = op.operands[0], ints(op, "broadcast_dimensions"), shape_of(value)
    element = ir.RankedTensorType(value.type).element_type
    kept_source = [i for i, d in enumerate(dims) if d in position]
    if len(kept_source) < len(dims):        # size-1 source dimensions mapped to dropped ones
        source = stablehlo.reshape(source, result_type=ir.RankedTensorType.get(
            [shape_of(source)[i] for i in kept_source], element))
    new_dims = [position[dims[i]] for i in kept_source]
    new_shape = [shape[d] for d in position]
    if new_dims == list(range(len(new_shape))) and new_shape == shape_of(source):
        return source
    return stablehlo.broadcast_in_dim(source, broadcast_dimensions=new_dims,
                                      result_type=ir.RankedTensorType.get(new_shape, element))


def broadcast_free_dims(value: ir.Value, free: list[int]) -> set[int]:
    """The free dimensions of a dot_general operand `value` that its broadcast_in_dim only
    broadcasts (static shapes)."""
    op = defined_by(value, "stablehlo.broadcast_in_dim")
    if op is None or not is_static(op.operands[0], value):
        return set()
    dims, source, shape = ints(op, "broadcast_dimensions"), shape_of(op.operands[0]), \
        shape_of(value)
    mapped = {d: source[i] for i, d in enumerate(dims)}
    return {d for d in free if d not in mapped or (mapped[d] == 1 and shape[d] != 1)}


def _dot_general(op: ir.Operation):
    if not is_static(op.results[0]):
        return None
    (lhs, rhs), numbers = arguments(op)
    sides = {"lhs": lhs, "rhs": rhs}
    free, dropped = {}, {}
    for side, value in sides.items():
        bound = set(numbers[f"{side}_batching_dimensions"]) | \
            set(numbers[f"{side}_contracting_dimensions"])
        free[side] = [d for d in range(len(shape_of(value))) if d not in bound]
        dropped[side] = broadcast_free_dims(value, free[side])
    if not dropped["lhs"] and not dropped["rhs"]:
        return None
    for side, value in sides.items():
        if dropped[side]:
            position = {d: k for k, d in enumerate(
                d for d in range(len(shape_of(value))) if d not in dropped[side])}
            for kind in ("batching", "contracting"):
                key = f"{side}_{kind}_dimensions"
                numbers[key] = [position[d] for d in numbers[key]]
            sides[side] = narrowed(value, position)
    # the result's dimensions: batch, then the lhs's free ones, then the rhs's
    batch = len(numbers["lhs_batching_dimensions"])
    result_dims = list(range(batch))
    for side in ("lhs", "rhs"):
        start = batch + (len(free["lhs"]) if side == "rhs" else 0)
        result_dims += [start + k for k, d in enumerate(free[side]) if d not in dropped[side]]
    result_type = ir.RankedTensorType(op.results[0].type)
    small = ir.RankedTensorType.get([result_type.shape[d] for d in result_dims],
                                    result_type.element_type)
    dot = stablehlo.dot_general(sides["lhs"], sides["rhs"], result_type=small, **numbers)
    return [stablehlo.broadcast_in_dim(dot, broadcast_dimensions=result_dims,
                                       result_type=result_type)]


@dataclasses.dataclass
class DotBeforeBroadcast(RulesPass):
    """dot_general(broadcast(v), w) -> broadcast(dot_general(v, w)) where the broadcast only
    broadcasts free dimensions of the operand."""

    NAME = "shlo-dot-before-broadcast"
    RULES = {"stablehlo.dot_general": _dot_general}
