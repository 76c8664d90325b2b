"""shlo-slice-before-elementwise: slice an elementwise value by slicing its operands.

`slice(reshape(f(x, ...)))` with `f` elementwise becomes `f(slice(reshape(x)), ...)`, and
`slice(f(x, ...))` becomes `f(slice(x), ...)`, repeated up the chain of elementwise ops. Each element of an elementwise op depends only on the same
element of its operands, so the result is exactly the same. IREE fuses such a chain into
the dispatch that reads the slice and computes all of it there: over the stack or shared memory
limit, or a compile that never ends (docs/iree_gaps.md#shlo-slice-before-elementwise); the
strided window slices of shlo-expand-select-and-scatter did the same without a reshape.

The op the slice reads is sliced through when the slice keeps at most half of it or nothing
else uses it (else the whole op stays and the slice would compute part of it twice); the ops
above it only when nothing else uses them (a slice through part of shlo-accurate-math's complex
exp, its table lookups left whole, failed IREE 3.13's cpu compile: fuzz seed 71 program 219),
or only the ops the slice crosses read them (a diamond: bf16 rounding reads a value twice).
A slice that keeps at most half of an elementwise op it stops at (one others read, one
reading a boolean leaf, see `_reads_i1_leaf`, or past its budget) reads that op behind a
fence: fused, IREE computed all of it in the slice's dispatch (seed 108 program 85), on the
cpu's stack past its limit (a slice of a compare of two long bf16 chains, each rounding a
diamond the slice stopped at: seed 174 program 438), unless IREE folds it to a constant
(`x ^ x`: the fenced constant failed to compile, seed 125 program 105); so is a dot_general
that contracts nothing, an elementwise product to IREE (seed 183 program 159). Where a slice of
FEW_ELEMENTS or fewer stops at a computed value others read too, it reads it behind a fence
(one element of a converted value that an `if` also read whole went to Vulkan shared memory
whole, and to 4 MiB of cpu stack at 1M: seed 66 program 140). Rank-0
operands of a ranked op (clamp bounds, a select's scalar predicate) stay as they are; those of
a rank-0 op are reshaped and sliced like the others; broadcast scalars and
splat constants become ones of the slice's shape. Each value of a chain is sliced once per
slice (a diamond of ops is not duplicated), at most MAX_OPS elementwise ops per slice, and
the slices of a module stop when they have sliced GROWTH times its ops. Slices that together
read all of a value (x[0::2] and x[1::2]) leave it whole, but for slices of FEW_ELEMENTS.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.attributes import enum_name
from shlo.dialect.rebuild import arguments
from ..base import Pass, is_splat_constant, nested_ops
from ..folding.fold_self_ops import SELF_COMPARISON
from ..lib.builders import erase_unread, fence
from ..lib.elementwise import ELEMENTWISE_OPS

# elementwise ops sliced through for one slice, at most (bounds the IR a slice can copy)
MAX_OPS = 64
# values sliced in one module, at most GROWTH times its StableHLO ops plus MIN_GROWTH: the
# complementary strided slices of every level of jax's associative_scan each sliced their
# chain, 199 ops became 3931 (a 256x1024 scan: compile 9.6 s, run 2.3 ms; not sliced 3.3 s,
# 1.8 ms)
GROWTH, MIN_GROWTH = 2, 4 * MAX_OPS


def _static(value: ir.Value) -> ir.RankedTensorType | None:
    t = value.type.maybe_downcast()
    return t if isinstance(t, ir.RankedTensorType) and t.has_static_shape else None


def _users(value: ir.Value) -> int:
    """How many distinct ops use `value`."""
    return len({use.owner for use in value.uses})


def _owner(value: ir.Value) -> ir.Operation | None:
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def _is_elementwise(op: ir.Operation | None, shape: list[int]) -> bool:
    """An elementwise op of one static result of `shape` whose operands have that shape or
    rank 0."""
    if op is None or op.name not in ELEMENTWISE_OPS or len(op.results) != 1:
        return False
    result = _static(op.results[0])
    if result is None or list(result.shape) != shape:
        return False
    types = [_static(v) for v in op.operands]
    return all(t is not None and (list(t.shape) == shape or t.rank == 0) for t in types)


def _product_without_contraction(op: ir.Operation | None) -> bool:
    """A dot_general that contracts no dimension: an elementwise product to IREE, which fused
    a slice of it the same way (the whole product of bf16[16384] on the cpu's stack for one
    element: fuzz seed 183 program 159)."""
    return op is not None and op.name == "stablehlo.dot_general" and \
        not arguments(op)[1]["lhs_contracting_dimensions"]


# a slice of at most this many elements slices boolean leaves too (a computed scalar or index)
FEW_ELEMENTS = 4


def _constant_truth(value: ir.Value) -> bool | None:
    """The boolean that IREE folds `value` (i1) to everywhere, else None: an integer compare
    of a value with itself, xor of a value with itself, a splat constant, and not, and, or of
    such values (`x or true` is true, `x and false` false)."""
    op = _owner(value)
    if op is None:
        return None
    if is_splat_constant(op):
        t = ir.RankedTensorType(value.type)
        if not (isinstance(t.element_type, ir.IntegerType) and t.element_type.width == 1):
            return None
        return bool(ir.DenseElementsAttr(op.attributes["value"]).get_splat_value().value)
    if op.name == "stablehlo.not":
        inner = _constant_truth(op.operands[0])
        return None if inner is None else not inner
    if len(op.operands) != 2:
        return None
    a, b = op.operands
    if op.name == "stablehlo.compare" and a == b and \
            isinstance(ir.RankedTensorType(a.type).element_type, ir.IntegerType):
        return SELF_COMPARISON[enum_name(op.attributes["comparison_direction"])]
    if op.name == "stablehlo.xor" and a == b:
        return False
    if op.name in ("stablehlo.and", "stablehlo.or"):
        absorbing = op.name == "stablehlo.or"        # true for or, false for and
        truths = [_constant_truth(v) for v in (a, b)]
        if absorbing in truths:
            return absorbing
        if truths == [not absorbing] * 2:
            return not absorbing
    return None


def _folds_to_constant(value: ir.Value) -> bool:
    """Whether IREE folds `value` to a constant: xor or an integer subtract or compare of a
    value with itself, a select, and, or, maximum or minimum of two such equal values, or a
    boolean that `_constant_truth` knows (seed 155 program 177: `compare(x, x) or y` fenced,
    which IREE folded to true: 'write affecting operations on global resources')."""
    op = _owner(value)
    if op is None or len(op.operands) < 2:
        return False
    t = ir.RankedTensorType(value.type).element_type
    if isinstance(t, ir.IntegerType) and t.width == 1 and _constant_truth(value) is not None:
        return True
    a, b = op.operands[-2], op.operands[-1]
    if op.name in ("stablehlo.select", "stablehlo.and", "stablehlo.or", "stablehlo.maximum",
                   "stablehlo.minimum"):
        return a == b and _folds_to_constant(a)
    integer = isinstance(ir.RankedTensorType(a.type).element_type, ir.IntegerType)
    return a == b and (op.name == "stablehlo.xor" or integer and op.name in (
        "stablehlo.subtract", "stablehlo.compare"))


def _reads_i1_leaf(op: ir.Operation) -> bool:
    """Whether `op` reads a boolean tensor that no elementwise op computes (an argument, a
    reduce): sliced before its convert, IREE failed to compile an i1 slice feeding a
    convolution's data-tiled kernel ('failed to legalize unresolved target materialization'
    of tensor<3x15xi8>; shlo-fuzz seed 30 program 614), so such an op is sliced after, unless
    the slice keeps FEW_ELEMENTS or fewer: sliced after, one element of a converted boolean
    hung IREE's compile (seed 31 program 465)."""
    for v in op.operands:
        t = _static(v)
        if t is None or t.rank == 0 or not isinstance(t.element_type, ir.IntegerType) or \
                t.element_type.width != 1:
            continue
        producer = _owner(v)
        if producer is None or producer.name not in ELEMENTWISE_OPS:
            return True
    return False


@dataclasses.dataclass
class _Slicer:
    """Builds `slice(reshape(v))` of the matched slice for values `v` of the reshape's
    operand's shape, through elementwise ops."""

    slice_op: ir.Operation
    reshaped: list[int]         # the reshape's result shape
    source: list[int]           # the reshape's operand shape
    small: bool                 # the slice keeps at most half of the elements
    few: bool                   # the slice keeps FEW_ELEMENTS or fewer
    root: ir.Value | None = None    # the value the slice reads (or its reshape's operand)
    private: frozenset = frozenset()    # values only the ops the slice crosses read
    budget: int = MAX_OPS
    memo: dict = dataclasses.field(default_factory=dict)

    def shaped(self, element: ir.Type) -> ir.RankedTensorType:
        return ir.RankedTensorType.get(
            ir.RankedTensorType(self.slice_op.results[0].type).shape, element)

    def sliced(self, value: ir.Value) -> ir.Value:
        if value not in self.memo:
            self.memo[value] = self._build(value)
        return self.memo[value]

    def _build(self, value: ir.Value) -> ir.Value:
        element = ir.RankedTensorType(value.type).element_type
        op = _owner(value)
        if op is not None and op.name == "stablehlo.broadcast_in_dim" and \
                ir.RankedTensorType(op.operands[0].type).rank == 0:
            return stablehlo.broadcast_in_dim(op.operands[0], broadcast_dimensions=[],
                                              result_type=self.shaped(element))
        if op is not None and is_splat_constant(op) and not isinstance(
                element, ir.ComplexType):
            splat = ir.DenseElementsAttr(op.attributes["value"])
            return stablehlo.constant(ir.DenseElementsAttr.get_splat(
                self.shaped(element), splat.get_splat_value()), result_type=None)
        if (op is not None and self.budget > 0 and _is_elementwise(op, self.source)
                and (_users(value) == 1 or value in self.private
                     or self.small and value == self.root)
                and (self.few or not _reads_i1_leaf(op))):
            self.budget -= 1
            operands = [v if self.source and ir.RankedTensorType(v.type).rank == 0
                        else self.sliced(v) for v in op.operands]
            return ir.Operation.create(
                op.name, results=[self.shaped(element)], operands=operands,
                attributes={n: op.attributes[n] for n in op.attributes}).result
        if op is not None and op.name == "stablehlo.reshape":
            value = op.operands[0]          # reshape(reshape(y)) is reshape(y)
        elif self.few and _is_elementwise(op, self.source) and _users(value) > 1:
            value = fence([value])[0]       # computed whole for its other readers anyway
        elif self.small and (_is_elementwise(op, self.source) or _product_without_contraction(
                op)) and not _folds_to_constant(value):
            value = fence([value])[0]       # whole, in its own dispatch
        if list(ir.RankedTensorType(value.type).shape) != self.reshaped:
            value = stablehlo.reshape(value, result_type=ir.RankedTensorType.get(
                self.reshaped, element))
        attrs = self.slice_op.attributes
        return stablehlo.slice(
            value, start_indices=list(ir.DenseI64ArrayAttr(attrs["start_indices"])),
            limit_indices=list(ir.DenseI64ArrayAttr(attrs["limit_indices"])),
            strides=list(ir.DenseI64ArrayAttr(attrs["strides"])),
            result_type=self.shaped(element))


def _private(root: ir.Value, shape: list[int]) -> frozenset:
    """The values of `shape` that elementwise ops compute `root` from (at most MAX_OPS) and
    that nothing but those ops and `root`'s own reader reads: a diamond inside the chain (a
    value read twice by the ops above a slice, as the bf16 rounding of a convert is) is
    crossed whole."""
    region: set[ir.Value] = set()
    pending = [root]
    while pending and len(region) < MAX_OPS:
        value = pending.pop()
        op = _owner(value)
        if op is None or value in region or not _is_elementwise(op, shape):
            continue
        region.add(value)
        pending.extend(op.operands)
    changed = True
    while changed:
        changed = False
        for value in list(region):
            if value != root and any(len(use.owner.results) != 1 or
                                     use.owner.results[0] not in region for use in value.uses):
                region.discard(value)
                changed = True
    return frozenset(region)


def _covered_by_slices(value: ir.Value) -> bool:
    """Whether slices read as many elements of `value` as it has, or more: each sliced
    through would copy the chain above it (jax's associative_scan reads every level's
    result as x[0::2] and x[1::2]), where IREE computes the chain once."""
    read = sum(int(np.prod(ir.RankedTensorType(use.owner.results[0].type).shape))
               for use in value.uses if use.owner.name == "stablehlo.slice")
    return read >= int(np.prod(ir.RankedTensorType(value.type).shape))


def _rewrite(slice_op: ir.Operation) -> int:
    """Rewrite one `slice(reshape(elementwise))` or `slice(elementwise)`; the number of values
    it sliced (0: unchanged)."""
    producer = _owner(slice_op.operands[0])
    if producer is not None and producer.name == "stablehlo.reshape":
        value, layout = producer.operands[0], producer.results[0]
    else:
        value = layout = slice_op.operands[0]
    result, reshaped, source = (_static(v) for v in (slice_op.results[0], layout, value))
    if result is None or reshaped is None or source is None:
        return 0
    root = _owner(value)
    few = int(np.prod(result.shape)) <= FEW_ELEMENTS
    small = 2 * int(np.prod(result.shape)) <= int(np.prod(source.shape))
    if root is None or not _is_elementwise(root, list(source.shape)) or (
            not few and not small and _reads_i1_leaf(root)):
        return 0
    if not small and (_users(layout) != 1 or _users(value) != 1):
        return 0
    if not few and _covered_by_slices(layout):
        return 0
    slicer = _Slicer(slice_op, list(reshaped.shape), list(source.shape), small, few, value,
                     private=_private(value, list(source.shape)) if small else frozenset())
    with ir.InsertionPoint(slice_op), slice_op.location:
        replacement = slicer.sliced(value)
    slice_op.results[0].replace_all_uses_with(replacement)
    slice_op.erase()
    return max(len(slicer.memo), 1)


def _erase_dead(root: ir.Operation) -> None:
    """Erase the reshapes, elementwise ops, broadcasts and constants nothing uses (users
    come after their operands in walk order, so one reverse sweep erases whole chains)."""
    pure = ELEMENTWISE_OPS | {"stablehlo.reshape", "stablehlo.broadcast_in_dim",
                              "stablehlo.constant"}
    erase_unread(root, lambda op: op.name in pure)


@dataclasses.dataclass
class SliceBeforeElementwise(Pass):
    """Slice the operands of elementwise ops (also through a reshape), not their result."""

    NAME = "shlo-slice-before-elementwise"

    def run(self, op: ir.Operation) -> None:
        slices = nested_ops(op, "stablehlo.slice")
        if not slices:
            return
        budget = GROWTH * len(nested_ops(op, "stablehlo.")) + MIN_GROWTH
        sliced = 0
        for slice_op in slices:
            if sliced > budget:
                break
            sliced += _rewrite(slice_op)
        if sliced:
            _erase_dead(op)
