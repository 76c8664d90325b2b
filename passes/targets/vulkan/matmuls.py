"""Vulkan quirks of dot_general: the result's last dimension padded to an aligned width
(docs/iree_gaps.md#vk-aligned-matmul-columns-products-of-odd-widths); products of bytes into
bytes computed into 32-bit integers
(docs/iree_gaps.md#vk-byte-product-products-of-bytes-into-bytes); products that a
broadcast spreads read from memory
(docs/iree_gaps.md#vk-spread-product-products-spread-by-a-broadcast-or-another-product);
operands computed from narrower numbers read from memory
(docs/iree_gaps.md#vk-narrow-product-input-products-of-values-computed-from-narrower-numbers)."""
from __future__ import annotations

import functools
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ...expand.index_vectors import edge_pad
from ...lib.builders import FUSION_BARRIER, fence, fence_readers, fence_uses, fusion_barriers
from ...lib.elementwise import ELEMENTWISE_OPS
from ...base import reads_narrow_values
from ...lib.expr import attributes, bit_width, element_of, is_complex, is_float, with_element


MIN_PRODUCTS = 1 << 16      # fewer multiply-adds than this: not worth a pad and a slice


def byte_product(op: ir.Operation):
    """A static dot_general into 8-bit integers as one into 32-bit integers of the same
    signedness, converted back: exact, both wrap modulo 256 (IREE's SPIR-V compile of some
    byte products into bytes died of SIGFPE, `i8[16, 8] @ i8[8, 24]`); else None."""
    result = ir.RankedTensorType(op.results[0].type)
    element = result.element_type
    if not result.has_static_shape or not isinstance(element, ir.IntegerType) or \
            element.width != 8:
        return None
    element = ir.IntegerType(element)
    wide = ir.IntegerType.get_unsigned(32) if element.is_unsigned else \
        ir.IntegerType.get_signless(32)
    product = ir.Operation.create("stablehlo.dot_general", results=[with_element(result, wide)],
                                  operands=list(op.operands), attributes=attributes(op)).result
    return [stablehlo.convert(product, result_type=result)]


def _aligned(n: int) -> int:
    """The width a last dimension of n is padded to: a multiple of 4 below 32, else of 32."""
    step = 4 if n < 32 else 32
    return -(-n // step) * step


def aligned_matmul_columns(op: ir.Operation):
    """A static dot_general whose result's last dimension n is one of the rhs and not
    aligned (lavapipe ran 384x352 @ 352x353 in 17 s of CPU, 352x352 in 0.06 s; 2048x353 @
    353x356 in 2.5 s, 353x384 in 0.7 s): the rhs zero-padded along it, the product sliced back
    (zeros add nothing: IREE's product starts from +0 anyway)."""
    (lhs, rhs), kw = arguments(op)
    result = ir.RankedTensorType(op.results[0].type)
    rt = ir.RankedTensorType(rhs.type)
    if not (result.has_static_shape and rt.has_static_shape and
            ir.RankedTensorType(lhs.type).has_static_shape):
        return None
    taken = set(kw.get("rhs_batching_dimensions") or []) | set(
        kw.get("rhs_contracting_dimensions") or [])
    free = [d for d in range(rt.rank) if d not in taken]
    n = result.shape[-1] if result.rank else 0
    lt = ir.RankedTensorType(lhs.type)
    products = math.prod(result.shape) * math.prod(
        lt.shape[d] for d in kw.get("lhs_contracting_dimensions") or [])
    if not free or _aligned(n) == n or products < MIN_PRODUCTS:
        return None
    d = free[-1]                    # the result's last dimension
    high = [0] * rt.rank
    high[d] = _aligned(n) - n
    shape = list(result.shape)
    kw["result_type"] = ir.RankedTensorType.get(shape[:-1] + [_aligned(n)], result.element_type)
    wide = stablehlo.dot_general(lhs, edge_pad(rhs, 0, [0] * rt.rank, high), **kw)
    return [stablehlo.slice(wide, start_indices=[0] * len(shape), limit_indices=shape)]


# ops a product's values pass through, one element each, before a broadcast spreads them
_ELEMENT_PRESERVING = ELEMENTWISE_OPS | {"stablehlo.reshape", "stablehlo.transpose"}


def _spreads(user: ir.Operation, value: ir.Value) -> bool:
    """Whether `user` reads each element of `value` for several elements of its result: a
    broadcast_in_dim that adds elements, or a dot_general (an outer or batched product)."""
    if user.name == "stablehlo.dot_general":
        return True
    if user.name != "stablehlo.broadcast_in_dim":
        return False
    out = ir.RankedTensorType(user.results[0].type)
    return out.has_static_shape and math.prod(out.shape) > math.prod(
        ir.RankedTensorType(value.type).shape)


def fence_spread_products(op: ir.Operation) -> None:
    """The values computed from a static dot_general's or convolution's result (through
    elementwise ops, reshapes and transposes) that a broadcast adding elements or another
    dot_general reads, read by those from behind a fusion barrier: fused, IREE kept the
    product's tile in workgroup memory and read other invocations' elements of it without a
    barrier between (a race: a 7x5 @ 5x9 product broadcast to 3x7x9 had 65 of 189 wrong).
    A fusion barrier in loops too: an optimization_barrier in transformer_decode's loop made
    IREE's command buffer fail ('indirect buffer reference slot 0 is out range')."""
    op = op.operation
    result = op.results[0]
    if not ir.RankedTensorType(result.type).has_static_shape:
        return
    pending, seen = [result], {result}
    while pending:
        value = pending.pop()
        spreads = False
        for use in value.uses:
            user = use.owner.operation
            if _spreads(user, value):
                spreads = True
            elif user.name in _ELEMENT_PRESERVING and len(user.results) == 1 and \
                    user.results[0] not in seen and \
                    ir.RankedTensorType(user.results[0].type).has_static_shape:
                seen.add(user.results[0])
                pending.append(user.results[0])
        if spreads:
            fence_readers([value], value.owner.operation, fusion_barriers,
                          reads=functools.partial(_spreads, value=value))


COMPLEX_LOOKBACK = 16       # elementwise ops followed back from a fused reader to a complex value


def _reads_complex(value: ir.Value) -> bool:
    """Whether `value` is complex or computed from a complex value through at most
    COMPLEX_LOOKBACK elementwise ops, reshapes and transposes (real(c), convert(real(c)), ...)."""
    pending, seen = [value], {value}
    while pending and len(seen) <= COMPLEX_LOOKBACK:
        value = pending.pop()
        if is_complex(element_of(value)):
            return True
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.name not in _ELEMENT_PRESERVING:
            continue
        for operand in owner.operands:
            if operand not in seen:
                seen.add(operand)
                pending.append(operand)
    return False


def fence_narrow_product_inputs(op: ir.Operation) -> None:
    """A dot_general's static operands computed from booleans, integer ones from narrower
    numbers (an i32 convert of i8) and float ones from numbers of fewer than 32 bits (an f32
    convert of bf16; followed back 8 ops; not an argument, a constant or a barrier's result),
    read from behind fences: fused into the product's dispatch, the i1 reads went out of
    bounds (a segfault, a hang, or a heap corrupted until exit), sign extended products were
    wrong (i8 -> i32 of 64x256 by 256x128: every result), bf16 -> f32 failed to compile
    ('vector.bitcast') and f16 -> f32 + x ran IREE's compile past 300 s."""
    for i, operand in enumerate(op.operands):
        t = ir.RankedTensorType(operand.type)
        if isinstance(operand.owner, ir.Block) or operand.owner.name in (
                FUSION_BARRIER, "stablehlo.constant") or not t.has_static_shape:
            continue
        # booleans for every operand; narrower numbers for an integer one of 16+ bits, and
        # numbers of fewer than 32 bits (or its own, if fewer) for a float one
        element = t.element_type
        width = element.width if isinstance(element, ir.IntegerType) else 0
        below = min(bit_width(element), 32) if is_float(element) else width if width > 8 else 2
        if reads_narrow_values(operand, below=below, booleans=True):
            with ir.InsertionPoint(op), op.location:
                op.operands[i] = fence([operand])[0]


def fence_complex_fused_products(op: ir.Operation) -> None:
    """A static real dot_general's or convolution's result read from behind a fusion barrier
    (an optimization_barrier in loops) where the elementwise ops, reshapes and transposes
    computed from it (what IREE fuses into the product's dispatch) also read a complex value
    or one computed from complex ones, or compute a complex one: fused, IREE's SPIR-V backend
    failed to compile ('failed to legalize unresolved source materialization from
    memref<1xf16> to memref<1x1xf16, strided<[3, 1]>>'; f32[8, 8] @ f32[8, 3] + real(c); a ui8
    product of 2x16 by 16x2 converted to complex<f32>, fuzz seed 168 program 109). A result
    only returned is left alone."""
    op = op.operation
    result = op.results[0]
    if len(op.results) != 1 or is_complex(element_of(result)) or \
            not ir.RankedTensorType(result.type).has_static_shape or \
            all(use.owner.name in (FUSION_BARRIER, "func.return") for use in result.uses):
        return
    pending, region = [result], {result}
    while pending:
        value = pending.pop()
        for use in value.uses:
            user = use.owner.operation
            if user.name not in _ELEMENT_PRESERVING or len(user.results) != 1:
                continue
            if is_complex(element_of(user.results[0])) or \
                    any(v not in region and _reads_complex(v) for v in user.operands):
                fence_uses(result, lambda v: fence([v])[0])
                return
            if user.results[0] not in region:
                region.add(user.results[0])
                pending.append(user.results[0])
