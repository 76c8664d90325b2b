"""Vulkan quirk rewrite of slices: a strided slice whose result has size-1 dimensions as the
slice of its operand reshaped with each of them merged into a neighbouring dimension
(docs/iree_gaps.md#vk-squeezed-strided-slice-strided-slices-of-values-with-size-1-dimensions)."""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ...lib.builders import dynamic_slice
from ...lib.expr import Num, const
from ...lib.loops import constant_int
from ...shapes.refine_fold import ints


def _chain(op: ir.Operation) -> list[ir.Operation]:
    """`op` and the slices and dynamic_slices it is a slice of, outermost first."""
    chain = [op]
    while isinstance(chain[-1].operands[0], ir.OpResult) and chain[-1].operands[0].owner.name \
            in ("stablehlo.slice", "stablehlo.dynamic_slice"):
        chain.append(chain[-1].operands[0].owner)
    return chain


def _times(a, k: int):
    return a * k if k != 1 else a


def _plus(a, b):
    return a + b if not (isinstance(b, int) and b == 0) else a


def _starts(chain: list[ir.Operation]) -> list:
    """Where the chain's read of its innermost operand starts: ints, or 0-d i32 Nums where a
    dynamic_slice's run-time start (clamped as it clamps it) takes part."""
    starts: list = [0] * ir.RankedTensorType(chain[0].results[0].type).rank
    for inner in chain:
        if inner.name == "stablehlo.slice":
            starts = [_plus(_times(s, t), f) if isinstance(s, Num) else f + s * t
                      for f, s, t in zip(ints(inner, "start_indices"), starts,
                                         ints(inner, "strides"))]
            continue
        shape = ir.RankedTensorType(inner.operands[0].type).shape
        for d, (v, n, size) in enumerate(zip(inner.operands[1:], shape,
                                             ints(inner, "slice_sizes"))):
            known = constant_int(v)
            if known is not None:
                starts[d] = _plus(starts[d], min(max(known, 0), n - size))
                continue
            v = Num(v).to(ir.Type.parse("i32"))
            first = Num(stablehlo.clamp(const(0, v.value), v.value, const(n - size, v.value)))
            starts[d] = _plus(first, starts[d])
    return starts


def squeezed_strided_slice(op: ir.Operation):
    """A static slice, with the slices and dynamic_slices it is a slice of, that takes a
    stride above 1 along a dimension and one element along another (x[:, ::2] of an Nx64x1
    x, x[:, ::2, :1] of an Nx64x4 one, x[:, 4:][:, ::2] of an Nx68x1 one), as
    reshape(slice(reshape(x))) where x's reshape merges each such size-1 dimension of the
    result into its outer neighbour (the inner one for leading dimensions); a dynamic_slice
    of the reshape first where a start is dynamic; else None."""
    out = ir.RankedTensorType(op.results[0].type)
    chain = _chain(op)
    x = chain[-1].operands[0]
    t = ir.RankedTensorType(x.type)
    strides = [math.prod(ints(inner, "strides")[d] for inner in chain
                         if inner.name == "stablehlo.slice") for d in range(out.rank)]
    if not t.has_static_shape or 0 in out.shape or 1 not in out.shape or \
            all(s == 1 for s, n in zip(strides, out.shape) if n != 1):
        return None
    starts = _starts(chain)
    kept = [d for d, n in enumerate(out.shape) if n != 1]
    # each kept dimension with the size-1 ones up to the next (the leading ones: the first's)
    groups = [list(range(0 if i == 0 else d, kept[i + 1] if i + 1 < len(kept) else out.rank))
              for i, d in enumerate(kept)]
    shape: list[int] = []
    first: list = []            # ints, or Nums where a start is dynamic
    step: list[int] = []
    for d, group in zip(kept, groups):
        inner = {g: math.prod(t.shape[h] for h in group if h > g) for g in group}
        shape.append(math.prod(t.shape[g] for g in group))
        start = 0
        for g in group:
            start = _plus(_times(starts[g], inner[g]), start)
        first.append(start)
        step.append(strides[d] * inner[d])
    merged = stablehlo.reshape(x, result_type=ir.RankedTensorType.get(shape, t.element_type))
    spans = [(out.shape[d] - 1) * s + 1 for d, s in zip(kept, step)]
    if any(isinstance(f, Num) for f in first):
        scalar = next(f for f in first if isinstance(f, Num)).value
        merged = dynamic_slice(merged, [f.value if isinstance(f, Num) else const(f, scalar)
                                        for f in first], spans)
        first = [0] * len(kept)
    part = stablehlo.slice(merged, start_indices=first,
                           limit_indices=[f + n for f, n in zip(first, spans)], strides=step,
                           result_type=ir.RankedTensorType.get([out.shape[d] for d in kept],
                                                               t.element_type))
    return [stablehlo.reshape(part, result_type=out)]
