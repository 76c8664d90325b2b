"""shlo-canonicalize-gather: rewrite every stablehlo.gather so IREE lowers it, with its start
indices clamped into the operand as the spec says.

IREE's compiler crashes on gathers with operand batching dimensions
(docs/iree_gaps.md#shlo-canonicalize-gather).
The rewrite makes each batching dimension an ordinary collapsed dimension whose start index
is an iota along the matching indices dimension, moves the index vector dimension last (in a
signed index type), and clamps every start index component c to
`[0, shape(operand)[d] - slice_sizes[d]]` (d = start_index_map[c]), the spec's
`clamp(start_index, 0, shape(operand) - slice_sizes)`, instead of relying on the backend.
The result shape and dimension order do not change. The rewritten op carries `shlo.canonical`
so the rule leaves it alone. Dynamic shapes are left to IREE, but for one form IREE
rejects: indices with a dynamic dimension and a size-1 index vector dimension last
(`tensor<?x1xi32>`, jax's `table[i]` under shape polymorphism), which IREE collapses with a
static-only reshape. There the
unit dimension is collapsed away (`tensor.collapse_shape`) and the index vector dimension made
implicit. (A gather of a strided slice: shlo-fence-gathered-slices.)
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..lib import builders as extras
from .index_vectors import IndexVectors, is_static, shape_of, tensor
from ..op_rules import CANONICAL, RulesPass


def _gather(op: ir.Operation):
    if CANONICAL in op.attributes:
        return None
    (operand, indices), kw = arguments(op)
    if not is_static(operand, indices):
        return _implicit_unit_index_vector(operand, indices, kw)
    obd = list(kw.get("operand_batching_dims", ()))
    vectors = IndexVectors.of(indices, kw.get("index_vector_dim", 0), kw["start_index_map"],
                              list(zip(obd, kw.get("start_indices_batching_dims", ()))))
    start = _clamped(vectors, shape_of(operand), list(kw["slice_sizes"]))
    kw.update(collapsed_slice_dims=sorted(list(kw.get("collapsed_slice_dims", ())) + obd),
              operand_batching_dims=(), start_indices_batching_dims=(),
              start_index_map=vectors.dims, index_vector_dim=len(vectors.batch_shape))
    kw.pop("result_type", None)
    result = stablehlo.gather(operand, start, **kw)
    result.owner.attributes[CANONICAL] = ir.UnitAttr.get()
    return [result]


def _implicit_unit_index_vector(operand: ir.Value, indices: ir.Value, kw: dict):
    """A dynamic gather's size-1 index vector dimension, when last, dropped (see the module
    docstring); other dynamic gathers as they are."""
    shape = shape_of(indices)
    vector_dim = kw.get("index_vector_dim", 0)
    if is_static(indices) or vector_dim != len(shape) - 1 or shape[vector_dim] != 1:
        return None
    element = ir.RankedTensorType(indices.type).element_type
    groups = [[d] for d in range(vector_dim - 1)] + [[vector_dim - 1, vector_dim]]
    flat = extras.collapse_shape(indices, groups, tensor(shape[:-1], element))
    return [stablehlo.gather(operand, flat, **kw)]     # index_vector_dim: now the rank, implicit


def _clamped(vectors: IndexVectors, shape: list[int], slice_sizes: list[int]) -> ir.Value:
    x = vectors.value
    if not vectors.dims:
        return x
    t = ir.RankedTensorType(x.type)
    k = len(vectors.dims)
    highest = np.array([shape[d] - slice_sizes[d] for d in vectors.dims])
    upper = stablehlo.broadcast_in_dim(
        stablehlo.constant(highest, result_type=tensor([k], t.element_type)),
        broadcast_dimensions=[t.rank - 1], result_type=t)
    zero = stablehlo.constant(0, result_type=tensor([], t.element_type))
    return stablehlo.clamp(zero, x, upper)


@dataclasses.dataclass
class CanonicalizeGather(RulesPass):
    """Rewrite stablehlo.gather without batching dimensions and with clamped start indices."""

    NAME = "shlo-canonicalize-gather"
    RULES = {"stablehlo.gather": _gather}
