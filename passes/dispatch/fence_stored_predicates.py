"""shlo-fence-stored-predicates: a boolean tensor that IREE reads from memory (an argument, a
loop's value, a barrier's result, an array constant) and that an op reading a dot_general's
result also reads (through elementwise ops and views) is read as i8, computed apart, and
compared with 0 there.

IREE 3.13's llvm-cpu compile with data tiling fuses the ops that read a dot_general's result
into the product's dispatch, in the product's packed layout, and gives every operand of theirs
that layout; of an i1 tensor, stored as bytes and truncated when loaded, that fails
("'iree_codegen.load_from_buffer' op buffer and tensor shapes must be compatible and element
types must match"), also without shlo's passes: `jnp.where(mask, x @ y, 0)`,
`(x @ y) * mask.astype(float)` and masked attention, forward and gradient, with the mask an
argument, at every size (docs/iree_gaps.md#shlo-fence-stored-predicates). An integer
product whose operand is computed from a stored predicate fails alike (a boolean matrix-vector
product into i32, shlo-legalize-integer-ops' selects of 1 and 0). The same program with an i8
mask compared with 0 compiles, as does one whose mask is computed (iota, compare), a float
product of a masked operand and a masked convolution.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..base import Pass, is_splat_constant, nested_ops
from ..lib import builders
from ..lib.elementwise import ELEMENTWISE_OPS
from ..lib.expr import Num

VIEWS = frozenset(f"stablehlo.{name}" for name in
                  ("broadcast_in_dim", "reshape", "transpose", "slice"))
# IREE fuses these into the dispatch of a product they read
_FUSED = ELEMENTWISE_OPS | VIEWS
# computed where they are read
_COMPUTED = _FUSED | {"stablehlo.iota", "stablehlo.constant"}


def _is_predicate(value: ir.Value) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and isinstance(t.element_type, ir.IntegerType) \
        and t.element_type.width == 1


def _readers_of_product(product: ir.Operation, depth: int = 8) -> list[ir.Operation]:
    """The elementwise ops and views that read `product`'s result, directly or through such
    ops (`depth` of them): those IREE fuses into the product's dispatch."""
    found, frontier = [], [product.results[0]]
    for _ in range(depth):
        reached = []
        for value in frontier:
            for use in value.uses:
                user = use.owner.operation
                if user.name in _FUSED and user not in found:
                    found.append(user)
                    reached += list(user.results)
        frontier = reached
    return found


def _stored_predicates(value: ir.Value, seen: set, depth: int = 8) -> list[ir.Value]:
    """The predicates of static shape that `value` is computed from through ops IREE fuses
    (elementwise ops, views; `depth` of them) and that IREE reads from memory: block
    arguments, array constants and results of other ops (a loop, a barrier). Each value is
    looked at once."""
    if value in seen:
        return []
    seen.add(value)
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name not in _COMPUTED or (
            owner.name == "stablehlo.constant" and not is_splat_constant(owner)):
        t = value.type
        stored = _is_predicate(value) and t.has_static_shape and t.rank
        return [value] if stored else []
    if not depth:
        return []
    return [leaf for operand in owner.operands
            for leaf in _stored_predicates(operand, seen, depth - 1)]


def _read_as_bytes(predicate: ir.Value) -> None:
    """Make every reader of `predicate` read `fence(convert(predicate, i8)) != 0` instead."""
    readers = [(use.owner.operation, use.operand_number) for use in predicate.uses]
    owner = predicate.owner
    where = ir.InsertionPoint.at_block_begin(owner) if isinstance(owner, ir.Block) \
        else ir.InsertionPoint.after(owner)
    t = ir.RankedTensorType(predicate.type)
    location = owner.owner.location if isinstance(owner, ir.Block) else owner.location
    with where, location:
        as_bytes = ir.RankedTensorType.get(t.shape, ir.IntegerType.get_signless(8))
        bytes_ = builders.fence([stablehlo.convert(predicate, result_type=as_bytes)])[0]
        read = Num(bytes_).ne(0).value
    for reader, index in readers:
        reader.operands[index] = read


@dataclasses.dataclass
class FenceStoredPredicates(Pass):
    """Read the stored predicates that ops fused into a dot_general read as fenced bytes."""

    NAME = "shlo-fence-stored-predicates"

    def run(self, op: ir.Operation) -> None:
        leaves: list[ir.Value] = []
        seen: set = set()
        for product in nested_ops(op, "stablehlo.dot_general"):
            readers = _readers_of_product(product)
            if isinstance(ir.RankedTensorType(product.results[0].type).element_type,
                          ir.IntegerType):
                readers.append(product)     # its operands' encodes read the predicates too
            for reader in readers:
                for operand in reader.operands:
                    leaves += _stored_predicates(operand, seen)
        for leaf in leaves:
            _read_as_bytes(leaf)
