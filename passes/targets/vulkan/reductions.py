"""Vulkan quirks of reduce: a reduction over dimensions that a kept one separates, in two
stages; real values computed from complex ones, and shared values widened from narrow
integers, read behind fusion barriers; float sums from a zero (reduces, windows, products)
given +0 where all their terms are -0
(docs/iree_gaps.md#vk-gapped-reduce-reductions-over-dimensions-a-kept-one-separates,
docs/iree_gaps.md#vk-complex-reduce-input-reductions-of-parts-of-complex-values,
docs/iree_gaps.md#vk-shared-widened-reduce-widened-values-two-reductions-read,
docs/iree_gaps.md#vk-zero-sum-sign-sums-of-negative-zeros)."""
from __future__ import annotations

import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ...base import binary_body
from ...custom_calls.cumulative_window import is_identity
from ...dispatch.long_reductions import identity_of
from ...lib.builders import PRODUCTS, fence_uses, plus_zero_read
from ...lib.elementwise import ELEMENTWISE_OPS
from ...lib.expr import clone_retyped, element_of, is_complex, is_float
from .fences import fence_reduce_sources


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


def _from_complex(value: ir.Value) -> bool:
    owner = value.owner
    return (not isinstance(owner, ir.Block) and not is_complex(element_of(value))
            and any(isinstance(v.type, ir.RankedTensorType) and is_complex(element_of(v))
                    for v in owner.operands)         # (not tensor.expand_shape's index sizes)
            and ir.RankedTensorType(value.type).has_static_shape)


def fence_complex_reduce_inputs(reduce: ir.Operation) -> None:
    """The real values (real, imag, abs, ...) computed from complex ones that a reduce
    computes its operands from (followed back 8 elementwise ops) behind fusion barriers:
    fused into the reduction's dispatch, IREE's SPIR-V backend read the complex buffer and
    failed to compile ('failed to legalize operation linalg.generic')."""
    fence_reduce_sources(reduce, _from_complex)


def _shared_widening(value: ir.Value) -> bool:
    """Whether `value` is a static value an elementwise op computes from integers of fewer
    than 32 bits (booleans too: a select of them, a convert), and more than one op reads it
    or those integers (twin widenings, which cse merges later)."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name not in ELEMENTWISE_OPS or \
            not ir.RankedTensorType(value.type).has_static_shape:
        return False
    narrow = [v for v in owner.operands
              if isinstance(element_of(v), ir.IntegerType) and element_of(v).width < 32]
    return bool(narrow) and (len(list(value.uses)) > 1 or
                             any(len(list(v.uses)) > 1 for v in narrow))


def fence_shared_widened_reduce_inputs(reduce: ir.Operation) -> None:
    """The values widened from narrow integers or booleans that a reduce computes its
    operands from and something else reads too (followed back 8 elementwise ops) behind
    fusion barriers: IREE copied the widening into each reading dispatch unfused, as a
    separate op staging the widened rows, and the call never returned on lavapipe
    (`(m.sum(), m.mean())`, `jnp.var(m)` of bool[65536], an int8 array widened and summed
    twice)."""
    fence_reduce_sources(reduce, _shared_widening)


_BARRIERS = "iree_tensor_ext.compute_barrier."       # .start and .end


def _contracted(dot: ir.Operation) -> int:
    """How many products a static dot_general sums per result element."""
    (lhs, _), kw = arguments(dot)
    shape = ir.RankedTensorType(lhs.type).shape
    return math.prod(shape[d] for d in kw.get("lhs_contracting_dimensions") or [])


def fence_zero_sums(op: ir.Operation) -> None:
    """A static float sum that starts from a zero: a dot_general's (summing two or more
    products) or convolution's result plus +0, a one-input add reduce's or reduce_window's
    from a +-0 constant plus that init again, the zero read from memory (after the barriers
    another entry put on the result).
    Exact (x + 0 is x, -0 + +0 is +0, x + -0 is x), and a sum of -0 terms from +0 comes out
    +0 as the spec's does: lavapipe's shader compiler folded the unrolled sum's literal start
    away (-0 for short sums of -0 terms)."""
    op = op.operation
    result = op.results[0]
    t = ir.RankedTensorType(result.type)
    if len(op.results) != 1 or not t.has_static_shape or not is_float(t.element_type) or \
            not list(result.uses):
        return
    zero = None
    if op.name == "stablehlo.dot_general" and _contracted(op) == 1:
        return          # one product per result, no sum: -0 stays -0, as XLA's and the CPU's
    if op.name not in PRODUCTS:
        combine = binary_body(op)
        if len(op.operands) != 2 or combine is None or combine.name != "stablehlo.add" or \
                not is_identity(op.operands[1], "stablehlo.add"):
            return
        zero = op.operands[1]
    readers = [use.owner for use in result.uses]
    if all(reader.name.startswith(_BARRIERS) for reader in readers):
        values = [reader.results[0] for reader in readers]     # fenced by another entry
    else:
        values = [result]
    for value in values:
        fence_uses(value, lambda v: plus_zero_read(v, zero))
