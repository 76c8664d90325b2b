"""shlo-legalize-shape: shape-dialect ops, and the tensor/arith index ops that come with them,
to StableHLO (what `chlo-legalize-to-stablehlo` and shape-polymorphic exports produce).

Extent tensors (`tensor<Nxindex>`, `!shape.shape` of ranked tensors) become `tensor<Nxi64>`
and index scalars `tensor<i64>`; each rule (a table: op name -> function) builds StableHLO
from the already converted operands. Constraints become runtime checks (`shape_checks`):
`shape.cstr_broadcastable`, `shape.cstr_eq` and `shape.cstr_require` a `cf.assert` that names
the op and its shapes (removed when it holds at compile time, an error when it fails);
`shape.assuming` regions are inlined. JAX's `custom_call @shape_assertion`, which IREE
drops silently, becomes the same kind of check.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..base import Pass, nested_ops
from .refine_fold import evaluate
from .shape_checks import all_of, assert_true, describe, dimension_size, equal, equal_or_one

I64 = ir.IntegerType.get_signless


def _extent_type(n: int) -> ir.RankedTensorType:
    return ir.RankedTensorType.get([n], I64(64))


def _length(extents: ir.Value, op: ir.Operation) -> int:
    t = extents.type.maybe_downcast()
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape or t.rank != 1:
        raise PassError(f"{op.name}: operand of type {extents.type} is not a shape of a ranked "
                        f"tensor (shlo-legalize-shape needs ranked tensors)", at=op)
    return t.shape[0]


def _extents(values: list[ir.Value]) -> ir.Value:
    """tensor<i64> scalars -> tensor<Nxi64>."""
    if not values:
        return stablehlo.constant(np.zeros([0], np.int64))
    parts = [stablehlo.reshape(v, result_type=_extent_type(1)) for v in values]
    return parts[0] if len(parts) == 1 else stablehlo.concatenate(parts, dimension=0)


def _extent(extents: ir.Value, i: int) -> ir.Value:
    """Entry i of tensor<Nxi64> as tensor<i64>."""
    one = stablehlo.slice(extents, start_indices=[i], limit_indices=[i + 1])
    return stablehlo.reshape(one, result_type=ir.RankedTensorType.get([], I64(64)))


def _as_i64(value: ir.Value, op: ir.Operation) -> ir.Value:
    """A converted value (tensor of i64), or an integer tensor or constant converted to i64."""
    t = value.type.maybe_downcast()
    if isinstance(t, ir.RankedTensorType) and isinstance(t.element_type, ir.IntegerType):
        if t.element_type.width == 64:
            return value
        return stablehlo.convert(value, result_type=ir.RankedTensorType.get(t.shape, I64(64)))
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "arith.constant":
        return _constant(owner.operation)[0]
    raise PassError(f"{op.name}: operand of type {value.type} does not come from a shape "
                    f"computation shlo-legalize-shape converts", at=op)


def _constant_index(value: ir.Value, op: ir.Operation) -> int:
    known = evaluate(value)
    if known is None:
        raise PassError(f"{op.name}: the index must be known at compile time", at=op)
    return int(known.reshape(-1)[0])


def _shape_of(op):
    value = op.operands[0]
    t = value.type.maybe_downcast()
    if not isinstance(t, ir.RankedTensorType):
        raise PassError(f"{op.name}: operand {value.type} is unranked", at=op)
    return [_extents([dimension_size(value, d) for d in range(t.rank)])]


def _const_shape(op):
    dims = [int(x) for x in ir.DenseIntElementsAttr(op.attributes["shape"])]
    return [stablehlo.constant(np.array(dims, np.int64).reshape([len(dims)]))]


def _constant(op):
    attr = op.attributes["value"]
    if isinstance(attr.maybe_downcast(), ir.IntegerAttr):
        return [stablehlo.constant(np.array(ir.IntegerAttr(attr).value, np.int64))]
    dense = ir.DenseIntElementsAttr(attr)
    shape = list(ir.ShapedType(dense.type).shape)
    if dense.is_splat:
        values = np.full(shape, dense.get_splat_value().value, np.int64)
    else:
        values = np.array([int(x) for x in dense], np.int64).reshape(shape)
    return [stablehlo.constant(values)]


def _aligned(op, shapes):
    """Per result dimension (numpy-aligned from the right), the operands' sizes there."""
    lengths = [_length(s, op) for s in shapes]
    rank = max(lengths, default=0)
    columns = []
    for d in range(rank):
        column = []
        for s, n in zip(shapes, lengths):
            k = d - (rank - n)
            if k >= 0:
                column.append(_extent(s, k))
        columns.append(column)
    return columns


def _broadcast(op):
    shapes = [_as_i64(v, op) for v in op.operands]
    one = stablehlo.constant(np.array(1, np.int64))
    out = []
    for column in _aligned(op, shapes):
        size = column[0]
        for other in column[1:]:
            size = stablehlo.select(equal(size, one), other, size)
        out.append(size)
    return [_extents(out)]


def _cstr_broadcastable(op):
    shapes = [_as_i64(v, op) for v in op.operands]
    checks = [equal_or_one(a, b) for column in _aligned(op, shapes)
              for i, a in enumerate(column) for b in column[i + 1:]]
    types = ", ".join(filter(None, (_producer_types(v) for v in op.operands)))
    assert_true(all_of(checks), f"{describe(op)}: shapes of {types} do not broadcast", op)
    return [None]


def _cstr_eq(op):
    shapes = [_as_i64(v, op) for v in op.operands]
    lengths = {_length(s, op) for s in shapes}
    types = ", ".join(filter(None, (_producer_types(v) for v in op.operands)))
    if len(lengths) > 1:
        raise PassError(f"{op.name}: shapes {types} have different ranks", at=op)
    n = lengths.pop() if lengths else 0
    checks = [equal(_extent(shapes[0], d), _extent(s, d)) for s in shapes[1:] for d in range(n)]
    assert_true(all_of(checks), f"{describe(op)}: shapes of {types} are not equal", op)
    return [None]


def _cstr_require(op):
    message = ir.StringAttr(op.attributes["msg"]).value
    flag = op.operands[0]
    if not isinstance(flag.type.maybe_downcast(), ir.RankedTensorType):
        raise PassError(f"{op.name}: the predicate must come from a shape computation "
                        f"(an arith.cmpi on shapes), got {flag.type}", at=op)
    assert_true(flag, f"{describe(op)}: {message}", op)
    return [None]


def _shape_assertion(op):
    if ir.StringAttr(op.attributes["call_target_name"]).value != "shape_assertion":
        return None
    message = ir.StringAttr(op.attributes["error_message"]).value \
        if "error_message" in op.attributes else "shape assertion"
    types = ", ".join(str(v.type) for v in op.operands[1:])
    detail = f" (values of {types})" if types else ""
    assert_true(op.operands[0], f"{describe(op)}: {message}{detail}", op)
    return []


def _assuming(op):
    block = op.regions[0].blocks[0]
    terminator = block.operations[len(block.operations) - 1]
    values = list(terminator.operands)
    for inner in list(block.operations)[:-1]:
        inner.operation.move_before(op)
    return values


def _concat(op):
    shapes = [_as_i64(v, op) for v in op.operands]
    return [stablehlo.concatenate(shapes, dimension=0)]


def _split_at(op):
    shape = _as_i64(op.operands[0], op)
    n = _length(shape, op)
    index = _constant_index(op.operands[1], op)
    index = index + n if index < 0 else index
    if not 0 <= index <= n:
        raise PassError(f"{op.name}: index {index} is out of range for a shape of rank {n}",
                        at=op)
    return [stablehlo.slice(shape, start_indices=[0], limit_indices=[index]),
            stablehlo.slice(shape, start_indices=[index], limit_indices=[n])]


def _num_elements(op):
    shape = _as_i64(op.operands[0], op)
    size = stablehlo.constant(np.array(1, np.int64))
    for d in range(_length(shape, op)):
        size = stablehlo.multiply(size, _extent(shape, d))
    return [size]


def _get_extent(op):
    shape = _as_i64(op.operands[0], op)
    return [_extent(shape, _constant_index(op.operands[1], op))]


def _dim(op):
    value = op.operands[0]
    return [dimension_size(value, _constant_index(op.operands[1], op))]


def _rank(op):
    return [stablehlo.constant(np.array(_length(_as_i64(op.operands[0], op), op), np.int64))]


def _from_elements(op):
    return [_extents([_as_i64(v, op) for v in op.operands])]


def _extract(op):
    tensor = _as_i64(op.operands[0], op)
    if ir.RankedTensorType(tensor.type).rank == 0:
        return [tensor]
    if len(op.operands) != 2:
        raise PassError(f"{op.name}: only 1-D shape tensors are supported", at=op)
    return [_extent(tensor, _constant_index(op.operands[1], op))]


def _identity(op):
    return [_as_i64(op.operands[0], op)]


def _index_cast(op):
    value = _as_i64(op.operands[0], op)
    t = op.results[0].type.maybe_downcast()
    element = t.element_type if isinstance(t, ir.RankedTensorType) else t
    if isinstance(element, ir.IndexType) or element.width == 64:
        return [value]
    shape = ir.RankedTensorType(value.type).shape
    return [stablehlo.convert(value, result_type=ir.RankedTensorType.get(shape, element))]


def _arith(builder):
    def rule(op):
        return [builder(*[_as_i64(v, op) for v in op.operands])]
    return rule


_PREDICATES = {0: "EQ", 1: "NE", 2: "LT", 3: "LE", 4: "GT", 5: "GE",
               6: "LT", 7: "LE", 8: "GT", 9: "GE"}


def _cmpi(op):
    direction = _PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
    lhs, rhs = (_as_i64(v, op) for v in op.operands)
    return [stablehlo.compare(lhs, rhs, comparison_direction=direction)]


def _witness(op):
    return [None]


def _producer_types(value: ir.Value) -> str:
    """The types of the tensors a shape was computed from (`tensor<?x3xf32>`, the operands
    of the get_dimension_size ops it depends on); a shape known at compile time as a list."""
    known = evaluate(value)
    if known is not None:
        return str(known.reshape(-1).tolist())
    found: list[str] = []
    seen: set[ir.Value] = set()
    stack = [value]
    while stack and len(seen) < 64:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if not isinstance(owner, (ir.Operation, ir.OpView)):
            continue
        op = owner.operation
        if op.name == "stablehlo.get_dimension_size":
            if str(op.operands[0].type) not in found:
                found.append(str(op.operands[0].type))
            continue
        stack.extend(reversed(list(op.operands)))
    return ", ".join(found)


RULES = {
    "shape.shape_of": _shape_of, "shape.const_shape": _const_shape,
    "shape.broadcast": _broadcast, "shape.cstr_broadcastable": _cstr_broadcastable,
    "shape.cstr_eq": _cstr_eq, "shape.cstr_require": _cstr_require,
    "shape.assuming_all": _witness, "shape.const_witness": _witness,
    "shape.assuming": _assuming, "shape.concat": _concat, "shape.split_at": _split_at,
    "shape.num_elements": _num_elements, "shape.get_extent": _get_extent,
    "shape.dim": _dim, "shape.rank": _rank,
    "shape.to_extent_tensor": _identity, "shape.index_to_size": _identity,
    "shape.size_to_index": _identity, "shape.value_as_shape": _identity,
    "tensor.dim": _dim, "tensor.from_elements": _from_elements, "tensor.extract": _extract,
    "tensor.cast": _identity,
    "arith.index_cast": _index_cast, "arith.index_castui": _index_cast,
    "arith.constant": _constant,
    "arith.addi": _arith(stablehlo.add), "arith.subi": _arith(stablehlo.subtract),
    "arith.muli": _arith(stablehlo.multiply), "arith.divsi": _arith(stablehlo.divide),
    "arith.maxsi": _arith(stablehlo.maximum), "arith.minsi": _arith(stablehlo.minimum),
    "arith.cmpi": _cmpi, "arith.select": _arith(stablehlo.select),
    "stablehlo.custom_call": _shape_assertion,
}


def _related(op: ir.Operation, converted: set) -> bool:
    """Shape ops, and tensor/arith ops on index values or on values this pass converted."""
    if op.name.startswith("shape."):
        return True
    if op.name == "stablehlo.custom_call":
        return True
    values = list(op.operands) + list(op.results)
    return any(v in converted or _has_index(v.type) for v in values)


def _has_index(t: ir.Type) -> bool:
    t = t.maybe_downcast()
    if isinstance(t, ir.ShapedType):
        t = t.element_type
    return isinstance(t, ir.IndexType)


def legalize(root: ir.Operation) -> None:
    """Rewrite every shape-computation op nested in `root` (see the module docstring)."""
    converted: set = set()
    erase = []
    for op in nested_ops(root):
        rule = RULES.get(op.name)
        if rule is None or op == root or not _related(op, converted):
            continue
        with ir.InsertionPoint(op), op.location:
            values = rule(op)
        if values is None:
            continue
        for old, new in zip(op.results, values):
            if new is not None:
                old.replace_all_uses_with(new)
                converted.add(new)
        erase.append(op)
    for op in reversed(erase):
        op.erase()


@dataclasses.dataclass
class LegalizeShape(Pass):
    """Legalize shape-dialect ops (and index tensor/arith ops) to StableHLO with runtime checks."""

    NAME = "shlo-legalize-shape"

    def run(self, op: ir.Operation) -> None:
        if not any(o.name in RULES for o in nested_ops(op)):
            return
        with op.context:
            legalize(op)
