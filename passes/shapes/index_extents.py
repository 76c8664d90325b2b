"""shlo-index-extents: the shape operands of dynamic ops rebuilt as index extents of `tensor.dim`.

StableHLO spells a run-time size as `get_dimension_size` (an i32 scalar), reshaped, converted
and concatenated into the shape operand of `dynamic_broadcast_in_dim`, `dynamic_iota` and
`dynamic_reshape`. IREE lowers that to `tensor.dim` cast to i32 and back to index: equal to the
tensor's size, but another SSA value than the size IREE reads from the tensor itself. IREE 3.13's
stream allocation then miscompiles a while loop carrying such tensors: silently wrong values
(docs/iree_gaps.md#shlo-index-extents). This pass rebuilds each such shape operand as
`tensor.from_elements` of `tensor.dim` and index arithmetic, so that a size is one value.
A shape computed from data (not from sizes and constants) is left as it is. It runs last.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ..base import Pass, nested_ops
from ..lib import builders

# op -> the position of its shape operand
SHAPE_OPERANDS = {"stablehlo.dynamic_broadcast_in_dim": 1, "stablehlo.dynamic_iota": 0,
                  "stablehlo.dynamic_reshape": 1}
# integer arithmetic on sizes (jax's symbolic dimensions) -> its index op
ARITHMETIC = {"stablehlo.add": "arith.addi", "stablehlo.subtract": "arith.subi",
              "stablehlo.multiply": "arith.muli", "stablehlo.divide": "arith.divsi",
              "stablehlo.remainder": "arith.remsi", "stablehlo.maximum": "arith.maxsi",
              "stablehlo.minimum": "arith.minsi"}


def _index(op_name: str, operands: list[ir.Value], attributes=None) -> ir.Value:
    return ir.Operation.create(op_name, results=[ir.IndexType.get()], operands=operands,
                               attributes=attributes or {}).result


def _constant(value: int) -> ir.Value:
    return _index("arith.constant", [], {"value": ir.IntegerAttr.get(ir.IndexType.get(), value)})


def _is_integer_tensor(value: ir.Value) -> bool:
    t = value.type
    return (isinstance(t, ir.RankedTensorType) and t.has_static_shape and t.rank <= 1
            and isinstance(t.element_type, (ir.IntegerType, ir.IndexType))
            and not (isinstance(t.element_type, ir.IntegerType) and t.element_type.is_unsigned))


# ops a size is computed by, each read by `_Reader`'s method of that name
_READ = {"stablehlo.constant": "_constant", "stablehlo.get_dimension_size": "_size",
         "stablehlo.reshape": "_same", "stablehlo.convert": "_same",
         "stablehlo.concatenate": "_concatenate", "stablehlo.slice": "_slice",
         **{name: "_arithmetic" for name in ARITHMETIC}}


def _readable(value: ir.Value) -> bool:
    """Whether `value` is an integer tensor of sizes that `_Reader` can rebuild."""
    if not _is_integer_tensor(value) or not isinstance(value, ir.OpResult):
        return False
    op = value.owner
    if op.name == "stablehlo.constant":
        return isinstance(op.attributes["value"], ir.DenseIntElementsAttr)
    if op.name == "stablehlo.get_dimension_size":
        return not builders.is_unsigned_dynamic(op.operands[0])  # (IREE cannot read its size)
    return op.name in _READ and all(_readable(v) for v in op.operands)


class _Reader:
    """The entries of a `_readable` integer tensor of sizes as index values, built at the
    insertion point."""

    def entries(self, value: ir.Value) -> list[ir.Value]:
        return getattr(self, _READ[value.owner.name])(value.owner)

    def _constant(self, op: ir.Operation) -> list[ir.Value]:
        attribute = ir.DenseIntElementsAttr(op.attributes["value"])
        t = ir.RankedTensorType(op.results[0].type)
        n = 1 if t.rank == 0 else t.shape[0]
        return [_constant(attribute[0] if attribute.is_splat else attribute[i]) for i in range(n)]

    def _size(self, op: ir.Operation) -> list[ir.Value]:
        return [builders.dim(op.operands[0], ir.IntegerAttr(op.attributes["dimension"]).value)]

    def _same(self, op: ir.Operation) -> list[ir.Value]:
        return self.entries(op.operands[0])             # (a size fits either integer type)

    def _concatenate(self, op: ir.Operation) -> list[ir.Value]:
        return [entry for operand in op.operands for entry in self.entries(operand)]

    def _slice(self, op: ir.Operation) -> list[ir.Value]:
        start, limit, stride = (list(ir.DenseI64ArrayAttr(op.attributes[k]))
                                for k in ("start_indices", "limit_indices", "strides"))
        return self.entries(op.operands[0])[start[0]:limit[0]:stride[0]]

    def _arithmetic(self, op: ir.Operation) -> list[ir.Value]:
        lhs, rhs = self.entries(op.operands[0]), self.entries(op.operands[1])
        return [_index(ARITHMETIC[op.name], [a, b]) for a, b in zip(lhs, rhs)]


def _extents(entries: list[ir.Value]) -> ir.Value:
    t = ir.RankedTensorType.get([len(entries)], ir.IndexType.get())
    return ir.Operation.create("tensor.from_elements", results=[t], operands=entries).result


@dataclasses.dataclass
class IndexExtents(Pass):
    """Shape operands of dynamic ops read from `tensor.dim` (index), not i32 sizes."""

    NAME = "shlo-index-extents"

    def run(self, op: ir.Operation) -> None:
        for user in [o for o in nested_ops(op, "stablehlo.dynamic_") if o.name in SHAPE_OPERANDS]:
            position = SHAPE_OPERANDS[user.name]
            shape = user.operands[position]
            if isinstance(ir.RankedTensorType(shape.type).element_type, ir.IndexType) \
                    or not _readable(shape):
                continue
            with user.location, ir.InsertionPoint(user):
                user.operands[position] = _extents(_Reader().entries(shape))
