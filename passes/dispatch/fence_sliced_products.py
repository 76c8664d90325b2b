"""shlo-fence-sliced-products: a dot_general operand that is a slice of another value which
is not one contiguous piece of it (columns of a matrix, rows of each matrix of a batch), or a
transpose of one, is read from behind a fusion barrier; so is a product of narrower operands
(i8 -> i32, bf16 -> f32) whose result such a slice reads.

IREE 3.13's llvm-cpu compile with data tiling fuses such a slice into the dispatch that packs
the operand into the product's tiled layout and failed on every product of one, at every size
tried, also without shlo's passes (docs/iree_gaps.md#shlo-fence-sliced-products):
"exceeded stack allocation limit" (`x[:, :32] @ z` of f32[256, 64] by [32, 256]; 16x32 by
32x16 compiles; the slice on the lhs or the rhs, at an offset, of the last or the middle
dimension of a batched product, a matrix-vector product), and "One or more operations with
large vector sizes" where both operands are slices of one value (attention with a fused QKV
projection: `q, k, v = split(x @ w_qkv)`, `q @ k.T`). Slices of whole rows, parts of the rows
of an unbatched product (a convolution's phases), and slices read through a reshape or an
elementwise op (multi-head attention's split heads) compile and are left alone. Behind the
barrier the slice is copied once, and the pack reads the copy.

Fused into the unpacking of a widening product's result, such a slice made LLVM's part of the
compile take 7 s for a 64x64 int8 product into i32 sliced to 50 columns and 71 s at 128x128
(0.7 s fenced; i16 and bf16 operands alike; f32, f16 and i32 ones, and row slices, not).
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect.rebuild import arguments
from ..base import Pass, nested_ops
from ..expand.index_vectors import shape_of
from ..lib import builders
from ..lib.expr import bit_width, element_of
from ..shapes.refine_fold import ints


def _cut_dims(slice_: ir.Operation) -> list[int]:
    """The dimensions a static slice takes part of."""
    full, part = shape_of(slice_.operands[0]), shape_of(slice_.results[0])
    return [d for d, (a, b) in enumerate(zip(full, part)) if a != b]


def is_contiguous(slice_: ir.Operation) -> bool:
    """Whether a static slice or dynamic_slice is one contiguous run of its operand's elements
    (row-major): unit strides, and its first and last element as far apart as it has
    elements."""
    if slice_.name == "stablehlo.slice" and any(k != 1 for k in ints(slice_, "strides")):
        return False
    full, part = shape_of(slice_.operands[0]), shape_of(slice_.results[0])
    span, pitch = 0, 1
    for d in reversed(range(len(full))):
        span += (part[d] - 1) * pitch
        pitch *= full[d]
    return span + 1 == math.prod(part)


def _is_cut(op: ir.Operation) -> bool:
    """Whether `op` is a static slice that is not contiguous."""
    return op.name == "stablehlo.slice" and \
        ir.RankedTensorType(op.operands[0].type).has_static_shape and not is_contiguous(op)


def _packed_badly(dot: ir.Operation, index: int) -> bool:
    """Whether operand `index` of `dot` is, directly or through transposes, a slice that IREE's
    data-tiling pack fails on: not contiguous, and strided, or of a batched product, or cutting
    what the product contracts or the operand's last dimension (parts of the rows of an
    unbatched product compile: a convolution's phases)."""
    value, where = dot.operands[index], None     # where: operand dim of each value dim
    while not isinstance(value.owner, ir.Block) and value.owner.name == "stablehlo.transpose":
        permutation = ints(value.owner, "permutation")
        where = [(where or list(range(len(permutation))))[permutation.index(d)]
                 for d in range(len(permutation))]
        value = value.owner.operands[0]
    owner = value.owner
    if isinstance(owner, ir.Block) or not _is_cut(owner):
        return False
    _, numbers = arguments(dot)
    side = ("lhs", "rhs")[index]
    rank = ir.RankedTensorType(owner.results[0].type).rank
    cut = {(where or list(range(rank)))[d] for d in _cut_dims(owner)}
    return any(k != 1 for k in ints(owner, "strides")) or \
        bool(numbers.get(f"{side}_batching_dimensions")) or \
        bool(cut & {*numbers.get(f"{side}_contracting_dimensions", ()), rank - 1})


def _widening(dot: ir.Operation) -> bool:
    """Whether a dot_general's (real) operands have fewer bits than its result."""
    elements = [element_of(v).maybe_downcast() for v in (*dot.operands, dot.results[0])]
    if not all(isinstance(e, ir.IntegerType | ir.FloatType) for e in elements):
        return False
    width = bit_width(elements[-1])
    return any(bit_width(e) < width for e in elements[:-1])


@dataclasses.dataclass
class FenceSlicedProducts(Pass):
    """Read the dot_general operands that are non-contiguous slices, and the results of
    widening ones that such slices read, from behind fusion barriers."""

    NAME = "shlo-fence-sliced-products"

    def run(self, op: ir.Operation) -> None:
        for dot in nested_ops(op, "stablehlo.dot_general"):
            for index, operand in enumerate(list(dot.operands)):
                if _packed_badly(dot, index):
                    with ir.InsertionPoint(dot), dot.location:
                        dot.operands[index] = builders.fence([operand])[0]
            if _widening(dot) and ir.RankedTensorType(dot.results[0].type).has_static_shape \
                    and any(_is_cut(use.owner) for use in dot.results[0].uses):
                builders.fence_readers([dot.results[0]], dot)
