"""shlo-fence-small-reductions: a reduce of many elements into few results (batch-norm
statistics and their gradients: [16384, 32] -> [32]) whose result a large op reads is computed
in a dispatch of its own, behind a fence.

IREE fuses such a reduce with its large broadcast consumer. The reduce has only a few
results to split between workgroups, and the fused consumer then runs on that few (shlo-bench's
cnn_train; docs/iree_gaps.md#shlo-fence-small-reductionsproducts). Fenced, the
consumer is an elementwise dispatch over all workers. Only reduces outside loops and
conditionals, with static shapes, at most MAX_RESULTS results from at least MIN_INPUT
elements (or from the partial results of such a reduce: shlo-split-long-reduce's second
stage), read by an op of at least MIN_INPUT elements (directly or through small ops such as
a reshape or the division by the count), are fenced
(`chlo_stablehlo_extras.fusion_barrier`).

A float column sum of a product (batch norm's backward `(x * dy).sum((0, 1, 2))`: the innermost
dimension kept; also the first stage shlo-split-long-reduce makes of it) reads each product as
`x * y + 0.0` (`products=true`). IREE fuses a bare multiply into the sum and raises the pair to
a matrix-vector contraction, which it compiles to scalar code on two workgroups, several
times slower than a plain sum of that shape. The add keeps every sum's value: it turns only a product of -0.0 into +0.0, and a sum
from an init of +0.0 (required) is the same for both (shlo-guard-square-sums does this for
squares with a maximum). A product with a broadcast factor is left alone: that is a real
matrix-vector product, which IREE runs well (guarded, it is slower).
"""
from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib import builders as extras
from ..lib.expr import const, element_of, is_float
from ..base import Pass, binary_body, defined_by, nested_ops

MAX_RESULTS = 256
MIN_INPUT = 1 << 16


def _size(value: ir.Value) -> int:
    t = ir.RankedTensorType(value.type)
    return math.prod(t.shape) if t.has_static_shape else -1


def _read_by_a_large_op(value: ir.Value, depth: int = 4) -> bool:
    """Whether an op of at least MIN_INPUT elements reads `value`, directly or through small
    ops (a reshape, a division by the count) up to `depth` deep."""
    for use in value.uses:
        for result in use.owner.results:
            size = _size(result)
            if size >= MIN_INPUT:
                return True
            if 0 <= size <= MAX_RESULTS and depth > 1 and _read_by_a_large_op(result, depth - 1):
                return True
    return False


def _fenced(op: ir.Operation) -> bool:
    """Whether a reduce reads many elements into few results that a large op reads."""
    if op.parent.name != "func.func" or len(op.results) != 1:
        return False
    size = _size(op.results[0])
    # the second stage of a reduce that shlo-split-long-reduce split reads the first's results
    first = defined_by(op.operands[0], "stablehlo.reduce")
    stages = first is not None and _size(first.operands[0]) >= MIN_INPUT
    return (0 <= size <= MAX_RESULTS and (_size(op.operands[0]) >= MIN_INPUT or stages)
            and _read_by_a_large_op(op.results[0]))


def _column_product(op: ir.Operation) -> tuple[ir.Operation, int] | None:
    """(the op, its operand index) where a float column sum from +0.0 reads a product
    (through reshapes) of two full tensors of at least MIN_INPUT elements, or None."""
    if (len(op.operands) != 2 or not is_float(element_of(op.operands[0]))
            or (combine := binary_body(op)) is None or combine.name != "stablehlo.add"
            or not _positive_zero(op.operands[1])):
        return None
    x = op.operands[0]
    t = ir.RankedTensorType(x.type)
    dims = [int(d) for d in ir.DenseI64ArrayAttr(op.attributes["dimensions"])]
    if not dims or t.rank - 1 in dims:
        return None
    user, index = op, 0
    while (reshape := defined_by(x, "stablehlo.reshape")) is not None:
        user, index, x = reshape, 0, reshape.operands[0]
    product = defined_by(x, "stablehlo.multiply")
    if product is None or _size(x) < MIN_INPUT or any(
            defined_by(v, "stablehlo.broadcast_in_dim") is not None for v in product.operands):
        return None         # (a broadcast factor makes a real matrix-vector product)
    return user, index


def _positive_zero(init: ir.Value) -> bool:
    owner = init.owner
    if not (isinstance(owner, ir.OpView) and owner.name == "stablehlo.constant"):
        return False
    attr = ir.DenseElementsAttr(owner.attributes["value"])
    if not attr.is_splat:
        return False
    value = float(ir.FloatAttr(attr.get_splat_value()).value)
    return value == 0.0 and math.copysign(1.0, value) > 0


@dataclasses.dataclass
class FenceSmallReductions(Pass):
    """Fence the few results of a reduce over many elements where a large op reads them."""

    NAME = "shlo-fence-small-reductions"
    products: bool = True       # a column sum reads its products as x * y + 0.0

    def run(self, op: ir.Operation) -> None:
        for reduce in nested_ops(op, "stablehlo.reduce"):
            # (nested_ops matches names by prefix: reduce_window and reduce_precision too)
            is_reduce = reduce.name == "stablehlo.reduce"
            found = _column_product(reduce) if self.products and is_reduce else None
            if found is not None:
                user, index = found
                product = user.operands[index]
                with ir.InsertionPoint(user), user.location:
                    user.operands[index] = stablehlo.add(product, const(0.0, product))
            if not _fenced(reduce):
                continue
            extras.fence_uses(reduce.results[0])
