"""Vulkan quirk rewrite of reduce: a reduction over dimensions that a kept one separates, in
two stages (docs/iree_gaps.md#vk-gapped-reduce)."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ...dispatch.long_reductions import identity_of
from ...lib.expr import clone_retyped


def gapped_reduce(op: ir.Operation):
    """A static one-input reduce over dimensions that a kept one separates (f16[16, 2, 3] over
    [0, 2]): first over its last run of adjacent reduced dimensions (from the body's identity
    where it is one known op), then over the others (from the init value); else None."""
    if len(op.operands) != 2:
        return None
    x, init = op.operands
    t = ir.RankedTensorType(x.type)
    dims = sorted(int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"]))
    if not t.has_static_shape or not dims:
        return None
    start = len(dims) - 1
    while start > 0 and dims[start - 1] == dims[start] - 1:
        start -= 1
    inner, outer = dims[start:], dims[:start]
    if not outer:
        return None
    body = op.regions[0].blocks[0]

    def cloned(*args):
        return clone_retyped(body, args, lambda same: same)

    partial = stablehlo.reduce([x], identity_of(op, [init]), dimensions=inner, body=cloned)
    return [stablehlo.reduce([partial], [init], dimensions=outer, body=cloned)]
