"""Vulkan quirk rewrite of dot_general: the result's last dimension padded to an aligned
width (docs/iree_gaps.md#vk-aligned-matmul-columns-products-of-odd-widths)."""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ...expand.index_vectors import edge_pad


MIN_PRODUCTS = 1 << 16      # fewer multiply-adds than this: not worth a pad and a slice


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
