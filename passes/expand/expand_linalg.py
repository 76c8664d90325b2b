"""shlo-expand-linalg: stablehlo.triangular_solve and stablehlo.cholesky as loops of StableHLO.

IREE has no lowering for either op (docs/iree_gaps.md#shlo-expand-linalg).
Both become a `stablehlo.while` over the rows (or
columns) of the matrix, each step a masked `dot_general` (batched over the leading dims) and
a few slices, so any batch shape, size and element type (real or complex) works.

triangular_solve is first brought to one form, op(a) x = b solved from the left with a lower
or upper triangular matrix: a right-side solve x op(a) = b is op(a)^T x^T = b^T, a
transposed matrix swaps its triangle, and ADJOINT conjugates. Only the named triangle of `a`
is read (and its diagonal only without unit_diagonal), as the spec says.

cholesky computes L with a = L L^H column by column (Cholesky-Crout); `lower = false` is the
same on a^H (U = L^H). The other triangle of the result is zero (the spec leaves it
implementation-defined); a matrix that is not positive definite gives NaNs.
"""
from __future__ import annotations

import dataclasses

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib import builders as extras
from shlo.errors import PassError
from ..op_rules import RulesPass
from ..lib.expr import Num, conj, is_complex, select, with_element

I64 = "i64"


def _scalar_i64(value: int) -> ir.Value:
    return stablehlo.constant(value, result_type=ir.RankedTensorType.get([], ir.Type.parse(I64)))


def _swap_last(x: ir.Value) -> ir.Value:
    rank = ir.RankedTensorType(x.type).rank
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return stablehlo.transpose(x, permutation=perm)


def _conj(x: ir.Value) -> ir.Value:
    return conj(x).value


def _index_mask(like: ir.Value, dim: int, index: ir.Value, direction: str) -> Num:
    """iota along `dim` of `like`'s shape compared with the i64 scalar `index`."""
    t = ir.RankedTensorType(like.type)
    ids = stablehlo.iota(iota_dimension=dim, result_type=with_element(t, ir.Type.parse(I64)))
    bound = stablehlo.broadcast_in_dim(index, broadcast_dimensions=[], result_type=ids.type)
    return Num(stablehlo.compare(ids, bound, comparison_direction=direction))


def _batched_dot(lhs: ir.Value, rhs: ir.Value) -> ir.Value:
    """[B..., p, k] x [B..., k, q] -> [B..., p, q]."""
    rank = ir.RankedTensorType(lhs.type).rank
    batch = list(range(rank - 2))
    return stablehlo.dot_general(lhs, rhs, lhs_batching_dimensions=batch,
                                 rhs_batching_dimensions=batch,
                                 lhs_contracting_dimensions=[rank - 1],
                                 rhs_contracting_dimensions=[rank - 2],
                                 precision_config=["HIGHEST", "HIGHEST"])


def _counted_loop(count: int, initial: ir.Value, step) -> ir.Value:
    """`for k in range(count): value = step(k, value)` with k an i64 scalar."""
    def cond(k, value):
        return stablehlo.compare(k, _scalar_i64(count), comparison_direction="LT")

    def body(k, value):
        return [stablehlo.add(k, _scalar_i64(1)), step(k, value)]
    return stablehlo.while_([_scalar_i64(0), initial], cond=cond, body=body)[1]


def _starts(rank: int, row: ir.Value, column: ir.Value | None = None) -> list[ir.Value]:
    zero = _scalar_i64(0)
    return [zero] * (rank - 2) + [row, zero if column is None else column]


def _substitute(a: ir.Value, b: ir.Value, lower: bool, unit_diagonal: bool) -> ir.Value:
    """x with a x = b, a [B..., m, m] lower (forward) or upper (backward) triangular."""
    at, bt = ir.RankedTensorType(a.type), ir.RankedTensorType(b.type)
    rank, m, n = bt.rank, bt.shape[-2], bt.shape[-1]
    batch = list(bt.shape[:-2])
    row_shape = batch + [1, m]

    def step(k, x):
        i = k if lower else stablehlo.subtract(_scalar_i64(m - 1), k)
        row = extras.dynamic_slice(a, _starts(rank, i), row_shape)
        known = _index_mask(row, rank - 1, i, "LT" if lower else "GT")
        row = select(known, Num(row), 0.0).value
        partial = _batched_dot(row, x)
        rhs = extras.dynamic_slice(b, _starts(rank, i), batch + [1, n])
        value = stablehlo.subtract(rhs, partial)
        if not unit_diagonal:
            diagonal = extras.dynamic_slice(a, _starts(rank, i, i), batch + [1, 1])
            value = stablehlo.divide(value, stablehlo.broadcast_in_dim(
                diagonal, broadcast_dimensions=list(range(rank)),
                result_type=ir.RankedTensorType.get(batch + [1, n], at.element_type)))
        return extras.dynamic_update_slice(x, value, _starts(rank, i))
    initial = Num(b).like(0.0).value
    return _counted_loop(m, initial, step)


def _static_or_fail(op: ir.Operation) -> None:
    for v in op.operands:
        if not ir.RankedTensorType(v.type).has_static_shape:
            raise PassError(f"shlo-expand-linalg: {op.name} with the dynamic shape {v.type} "
                            f"is not supported: refine shapes to static first "
                            f"(shlo's default pipeline does when they are known)", at=op)


def _empty(op: ir.Operation) -> list[ir.Value] | None:
    """The result of an op on empty matrices (a zero-sized dimension): nothing to compute."""
    result = op.results[0]
    if 0 in ir.RankedTensorType(result.type).shape:
        return [stablehlo.constant(0, result_type=result.type)]
    return None


def triangular_solve(op: ir.Operation) -> list[ir.Value]:
    _static_or_fail(op)
    if (empty := _empty(op)) is not None:
        return empty
    a, b = op.operands
    left = ir.BoolAttr(op.attributes["left_side"]).value
    lower = ir.BoolAttr(op.attributes["lower"]).value
    unit = ir.BoolAttr(op.attributes["unit_diagonal"]).value
    transpose = str(op.attributes["transpose_a"]).rstrip(">").split()[-1].upper()
    # op(a) as the matrix solved from the left: flags (transposed, conjugated)
    transposed, conjugated = transpose != "NO_TRANSPOSE", transpose == "ADJOINT"
    if not left:                        # x op(a) = b  <=>  op(a)^T x^T = b^T
        transposed = not transposed
        b = _swap_last(b)
    if transposed:
        a, lower = _swap_last(a), not lower
    if conjugated:
        a = _conj(a)
    x = _substitute(a, b, lower, unit)
    return [x if left else _swap_last(x)]


def _cholesky_lower(a: ir.Value) -> ir.Value:
    t = ir.RankedTensorType(a.type)
    rank, n = t.rank, t.shape[-1]
    batch = list(t.shape[:-2])

    def step(j, factor):
        # s_i = sum_{k<j} L[i,k] conj(L[j,k]) over the columns already done
        row = extras.dynamic_slice(factor, _starts(rank, j), batch + [1, n])
        done = _index_mask(row, rank - 1, j, "LT")
        row = select(done, Num(row), 0.0).value
        s = _batched_dot(factor, _conj(_swap_last(row)))                    # [B..., n, 1]
        column = extras.dynamic_slice(a, _starts(rank, _scalar_i64(0), j), batch + [n, 1])
        column = Num(stablehlo.subtract(column, s))
        pivot = extras.dynamic_slice(column.value, _starts(rank, j), batch + [1, 1])
        if is_complex(t.element_type):
            pivot = stablehlo.real(pivot)
        d = stablehlo.sqrt(pivot)
        if is_complex(t.element_type):
            d = stablehlo.complex(d, Num(d).like(0.0).value)
        d = stablehlo.broadcast_in_dim(d, broadcast_dimensions=list(range(rank)),
                                       result_type=column.type)
        below = _index_mask(column.value, rank - 2, j, "GT")
        at = _index_mask(column.value, rank - 2, j, "EQ")
        new = select(below, Num(stablehlo.divide(column.value, d)), 0.0)
        new = select(at, Num(d), new)
        return extras.dynamic_update_slice(factor, new.value, _starts(rank, _scalar_i64(0), j))
    return _counted_loop(n, Num(a).like(0.0).value, step)


def cholesky(op: ir.Operation) -> list[ir.Value]:
    _static_or_fail(op)
    if (empty := _empty(op)) is not None:
        return empty
    a = op.operands[0]
    lower = "lower" in op.attributes and ir.BoolAttr(op.attributes["lower"]).value
    if lower:
        return [_cholesky_lower(a)]
    return [_conj(_swap_last(_cholesky_lower(_conj(_swap_last(a)))))]


RULES = {
    "stablehlo.triangular_solve": triangular_solve,
    "stablehlo.cholesky": cholesky,
}


@dataclasses.dataclass
class ExpandLinalg(RulesPass):
    """Expand stablehlo.triangular_solve and stablehlo.cholesky into loops of StableHLO."""

    NAME = "shlo-expand-linalg"
    RULES = RULES
