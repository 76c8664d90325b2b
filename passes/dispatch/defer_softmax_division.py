"""shlo-defer-softmax-division: a matmul of softmax weights divides by the softmax's sum after
the matmul, as flash attention does: dot(e / sum(e), v) -> dot(e, v) / sum(e), where
e = exp(s - max(s)) and the sum and the max run over the dims the dot contracts.

In attention (softmax(q k^T) v) IREE fuses the softmax into one dispatch that computes
exp twice (once for the sum, once for the quotient), then relayouts the weights for the
second matmul. Deferred, the exp is computed once and the division is fused into the
second matmul's output (keys x fewer elements; docs/iree_gaps.md#shlo-defer-softmax-division).

The dot is linear in the weights, and the sum is constant along the contracted dims, so the
two forms agree up to rounding (one division per output instead of one per weight).
Overflow: e <= 1 (the max is subtracted), so the undivided dot stays below keys x max |v|
and overflows only where |v| is above 3.4e38 / keys. The rewrite therefore requires exactly
that shape: e an exponential of s minus a broadcast max-reduce of the same s (or of s before
a transpose, as in jax.nn.dot_product_attention; possibly raised by a maximum, as jax's -inf
guard), the divisor a broadcast add-reduce of e from zero, f32 or f64, and the quotient used
by that dot alone. (In the cpu pipeline f64 exp is shlo-expand-f64-math's polynomial by the
time this pass runs: f64 softmax stays as it is.)
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.dialect.rebuild import arguments
from ..base import binary_body, defined_by
from ..lib.expr import attributes, element_of
from ..custom_calls.cumulative_window import is_identity
from ..op_rules import RulesPass

FLOATS = ("f32", "f64")


def _shape(value: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(value.type).shape)


def broadcast_source(value: ir.Value, where: list[int | None] | None = None
                     ) -> tuple[ir.Value, list[int | None]]:
    """(x, dims): `value` is x broadcast, transposed and reshaped (reshapes that only add or
    drop unit dims); x's dim i runs along dim dims[i] of `value` (None for a unit dim that is
    broadcast). x is `value` itself when no such op made it. With `where`, the dims are
    `where`'s (value's dim j runs along where[j] of something else)."""
    if where is None:
        where = list(range(len(_shape(value))))
    while not isinstance(value.owner, ir.Block) and value.owner.operands:
        owner, x = value.owner, value.owner.operands[0]
        shape, wide = _shape(x), _shape(value)
        if owner.name == "stablehlo.broadcast_in_dim":
            dims = list(ir.DenseI64ArrayAttr(owner.attributes["broadcast_dimensions"]))
            where = [where[d] if shape[i] == wide[d] else None for i, d in enumerate(dims)]
        elif owner.name == "stablehlo.transpose":
            permutation = list(ir.DenseI64ArrayAttr(owner.attributes["permutation"]))
            where = [where[permutation.index(i)] for i in range(len(shape))]
        elif (owner.name == "stablehlo.reshape"
              and [s for s in shape if s != 1] == [s for s in wide if s != 1]):
            kept = iter([where[d] for d, s in enumerate(wide) if s != 1])
            where = [None if s == 1 else next(kept) for s in shape]
        else:
            break
        value = x
    return value, where


def _static(value: ir.Value) -> bool:
    return ir.RankedTensorType(value.type).has_static_shape


def _reduce(value: ir.Value, combine: str) -> ir.Operation | None:
    """The one-operand reduce with body `combine` that makes `value` (an add only from
    zero), else None."""
    reduce = defined_by(value, "stablehlo.reduce")
    if reduce is None or len(reduce.operands) != 2:
        return None
    body = binary_body(reduce)
    if body is None or body.name != combine:
        return None
    if combine == "stablehlo.add" and not is_identity(reduce.operands[1], combine):
        return None
    return reduce


def row_of(value: ir.Value, combine: str, of: ir.Value, dims: list[int],
           guarded: bool = False) -> tuple[ir.Value, list[int | None]] | None:
    """(r, where) when `value` (shaped like `of`) is r broadcast back along `dims`, r the
    `combine` reduce of `of` (or of a transpose of `of`'s) over them; r's dim i runs along
    `of`'s dim where[i]. With `guarded`, r may also be a maximum of such a reduce and
    anything (jax raises a row max to at least -inf)."""
    source, where = broadcast_source(value)
    candidates = [(source, where)]
    guard = defined_by(source, "stablehlo.maximum")
    if guarded and guard is not None:
        candidates += [broadcast_source(operand, where) for operand in guard.operands]
    identity: list[int | None] = list(range(len(_shape(of))))
    tensors = [(of, identity)]
    base, along = broadcast_source(of)      # of itself re-indexed: base's dim b is of's along[b]
    if (base is not of and None not in along
            and sorted(d for d in along if d is not None) == identity):
        tensors.append((base, along))
    for source, where in candidates:
        reduce = _reduce(source, combine)
        for operand, to_of in tensors:
            if reduce is None or reduce.operands[0] != operand:
                continue
            reduced = [int(d) for d in ir.DenseI64ArrayAttr(reduce.attributes["dimensions"])]
            kept = [to_of[b] for b in range(len(to_of)) if b not in reduced]
            along_of = [to_of[b] for b in reduced]
            if (None not in along_of and sorted(d for d in along_of if d is not None) == dims
                    and where == kept):
                return source, where
    return None


def softmax_parts(weights: ir.Value, dims: list[int]):
    """(e, the sum, its dims' places in e) when `weights` is e / sum(e) over `dims` with
    e = exp(s - max(s)) (`row_of`)."""
    quotient = defined_by(weights, "stablehlo.divide")
    if quotient is None or str(element_of(weights)) not in FLOATS or not _static(weights):
        return None
    e, divisor = quotient.operands
    exp = defined_by(e, "stablehlo.exponential")
    shifted = exp and defined_by(exp.operands[0], "stablehlo.subtract")
    total = shifted and row_of(divisor, "stablehlo.add", e, dims)
    if not total or shifted is None:
        return None
    s, row_max = shifted.operands
    return (e, *total) if row_of(row_max, "stablehlo.maximum", s, dims, guarded=True) else None


def _result_dims(numbers: dict, side: str, rank: int, other_rank: int) -> dict[int, int]:
    """Operand dim -> result dim of a dot_general, for one operand's batch and free dims."""
    batch = list(numbers.get(f"{side}_batching_dimensions") or ())
    contracting = set(numbers.get(f"{side}_contracting_dimensions") or ())
    free = [d for d in range(rank) if d not in contracting and d not in batch]
    first_free = len(batch)
    if side == "rhs":                       # after the batch dims and the lhs's free dims
        lhs_used = len(set(numbers.get("lhs_batching_dimensions") or ())
                       | set(numbers.get("lhs_contracting_dimensions") or ()))
        first_free += other_rank - lhs_used
    return {**{d: i for i, d in enumerate(batch)},
            **{d: first_free + j for j, d in enumerate(free)}}


def _deferred(dot: ir.Operation):
    _, numbers = arguments(dot)
    for index, side in enumerate(("lhs", "rhs")):
        weights = dot.operands[index]
        dims = sorted(numbers.get(f"{side}_contracting_dimensions") or ())
        if not (dims and len(list(weights.uses)) == 1 and _static(dot.results[0])
                and element_of(dot.results[0]) == element_of(weights)):
            continue
        parts = softmax_parts(weights, dims)
        if parts is None:
            continue
        e, total, where = parts
        operands = list(dot.operands)
        operands[index] = e
        result = dot.results[0]
        product = ir.Operation.create(dot.name, operands=operands, attributes=attributes(dot),
                                      results=[result.type]).result
        to_result = _result_dims(numbers, side, len(_shape(weights)),
                                 len(_shape(dot.operands[1 - index])))
        wide = stablehlo.broadcast_in_dim(total, broadcast_dimensions=[to_result[d] for d in where],
                                          result_type=result.type)
        return [stablehlo.divide(product, wide)]
    return None


@dataclasses.dataclass
class DeferSoftmaxDivision(RulesPass):
    """Divide by a softmax's sum after the dot_general that contracts its weights."""

    NAME = "shlo-defer-softmax-division"
    RULES = {"stablehlo.dot_general": _deferred}
