"""The decomposition of `lapack_?gtsv_ffi` (? = s, d, c, z): `jax.lax.linalg.tridiagonal_solve`
on the CPU.

gtsv(dl, d, du, b) -> (dl', d', du', x, info): solves A x = b for the tridiagonal A with
A[i, i-1] = dl[i], A[i, i] = d[i], A[i, i+1] = du[i] (jax's layout: dl[0] and du[n-1] are not
read), several right-hand sides as b's columns, batch dimensions in front. As LAPACK's xgtsv:
Gaussian elimination with partial pivoting, row by row in a `stablehlo.while` (rows k and
k + 1 trade places when |a[k+1, k]| > |a[k, k]|, magnitudes |re| + |im| for complex as LAPACK's
CABS1; an interchange fills a second superdiagonal), then back substitution in a second loop;
info is the 1-based row of the first zero pivot (jax turns a non-zero info into NaNs). d' and
du' are U's diagonal and superdiagonal and dl' its second superdiagonal shifted one place (the
factor LAPACK leaves; jax reads only x and info). Every step works on whole vectors with
masks, so batches ride along.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import Num, select, sum_over, with_element
from ..registry import register_custom_call
from .ffi_calls import broadcast_scalar, magnitude, scalar_constant


class _Rows:
    """Reads and writes of one position along the tridiagonal's rows, on whole tensors: of
    the vectors [..., n] (dl, d, du) and of the right-hand sides [..., n, r]."""

    def __init__(self, d: Num, b: Num):
        self.vec, self.mat = (Num(stablehlo.iota(iota_dimension=dim, result_type=with_element(
            t, ir.IntegerType.get_signless(32)))) for t, dim in ((d.type, d.type.rank - 1),
                                                                 (b.type, b.type.rank - 2)))

    def _ids(self, v: Num) -> tuple[Num, int]:
        """The row numbers of v's elements, and the axis they run along."""
        if v.type.rank == self.vec.type.rank:
            return self.vec, v.type.rank - 1
        return self.mat, v.type.rank - 2

    def at(self, v: Num, k: Num) -> Num:
        """v[..., k] of a vector (k a scalar), or row k of a matrix."""
        ids, axis = self._ids(v)
        return sum_over(select(ids.eq(broadcast_scalar(k, ids.type)), v, v.like(0)), [axis])

    def put(self, v: Num, k: Num, value: Num) -> Num:
        """v with its element (row) k replaced by `value`."""
        ids, axis = self._ids(v)
        kept = [a for a in range(v.type.rank) if a != axis]
        spread = Num(stablehlo.broadcast_in_dim(value.value, broadcast_dimensions=kept,
                                                result_type=v.type))
        return select(ids.eq(broadcast_scalar(k, ids.type)), spread, v)


def _columns(v: Num, start: int, limit: int) -> ir.Value:
    """v[..., start:limit]."""
    shape = list(v.type.shape)
    return stablehlo.slice(v.value, start_indices=[0] * (len(shape) - 1) + [start],
                           limit_indices=shape[:-1] + [limit])


def _over_columns(s: Num, t: ir.RankedTensorType) -> Num:
    """A per-matrix value [...] broadcast over the right-hand sides [..., r]."""
    return Num(stablehlo.broadcast_in_dim(s.value, broadcast_dimensions=list(range(s.type.rank)),
                                          result_type=with_element(t, s.element)))


def gtsv(op: ir.Operation, dl: ir.Value, d: ir.Value, du: ir.Value, b: ir.Value):
    dl, d, du, b = Num(dl), Num(d), Num(du), Num(b)
    n = d.type.shape[-1]
    rows = _Rows(d, b)
    i32 = ir.IntegerType.get_signless(32)
    info_type = ir.RankedTensorType(op.results[4].type)
    zero_info = broadcast_scalar(Num(scalar_constant(0, info_type.element_type)), info_type)
    # LAPACK's DL(k) = A[k+1, k] = dl[k+1], DU(k) = du[k] (0-based k < n - 1)
    rank = dl.type.rank
    shifted = Num(stablehlo.concatenate(
        [_columns(dl, 1, n), _columns(dl.like(0), 0, 1)], dimension=rank - 1)) if n > 1 \
        else dl.like(0)
    last = rows.vec.eq(broadcast_scalar(Num(scalar_constant(n - 1, i32)), rows.vec.type))
    upper = select(last, du.like(0), du)

    def info_if(bad: Num, info: Num, row: Num) -> Num:
        info_row = Num(stablehlo.convert(row.value, result_type=ir.RankedTensorType.get(
            [], info_type.element_type)))
        return select(bad & info.eq(zero_info), broadcast_scalar(info_row, info_type), info)

    def forward_cond(k, *_):
        return stablehlo.compare(k, scalar_constant(n - 1, i32), comparison_direction="LT")

    def forward(k, lower, diag, sup, fill, rhs, info):
        k, lower, diag, sup, fill, rhs, info = map(Num, (k, lower, diag, sup, fill, rhs, info))
        k1 = k + 1
        dk, lk, uk = rows.at(diag, k), rows.at(lower, k), rows.at(sup, k)
        dk1, uk1 = rows.at(diag, k1), rows.at(sup, k1)
        bk, bk1 = rows.at(rhs, k), rows.at(rhs, k1)
        keep = magnitude(dk) >= magnitude(lk)                      # no interchange
        zero = dk.eq(dk.like(0))
        fact = select(keep, lk / select(zero, dk.like(1), dk), dk / select(keep, lk.like(1), lk))
        spread = lambda s: _over_columns(s, bk.type)
        new_dk = select(keep, dk, lk)
        new_dk1 = select(keep, dk1 - fact * uk, uk - fact * dk1)
        new_uk = select(keep, uk, dk1)
        new_uk1 = select(keep, uk1, -fact * uk1)
        new_fill = select(keep, uk1.like(0), uk1)
        new_bk = select(spread(keep), bk, bk1)
        new_bk1 = select(spread(keep), bk1 - spread(fact) * bk, bk - spread(fact) * bk1)
        diag = rows.put(rows.put(diag, k, new_dk), k1, new_dk1)
        sup = rows.put(rows.put(sup, k, new_uk), k1, new_uk1)
        fill = rows.put(fill, k, new_fill)
        rhs = rows.put(rows.put(rhs, k, new_bk), k1, new_bk1)
        info = info_if(keep & zero, info, k1)
        return [k1.value, lower.value, diag.value, sup.value, fill.value, rhs.value, info.value]

    start = [scalar_constant(0, i32), shifted.value, d.value, upper.value, d.like(0).value, b.value,
             zero_info.value]
    _, _, diag, sup, fill, rhs, info = map(Num, extras.while_(start, forward_cond, forward))
    last_pivot = rows.at(diag, Num(scalar_constant(n - 1, i32)))
    info = info_if(last_pivot.eq(last_pivot.like(0)), info, Num(scalar_constant(n, i32)))

    def back_cond(k, _):
        return stablehlo.compare(k, scalar_constant(0, i32), comparison_direction="GE")

    def back(k, x):
        k, x = Num(k), Num(x)
        # x[k] = (b[k] - U[k] x[k+1] - fill[k] x[k+2]) / d[k]; rows past n - 1 read as zero
        x1 = rows.at(x, k + 1)
        x2 = rows.at(x, k + 2)
        spread = lambda s: _over_columns(s, x1.type)
        value = ((rows.at(rhs, k) - spread(rows.at(sup, k)) * x1 - spread(rows.at(fill, k)) * x2)
                 / spread(rows.at(diag, k)))
        return [(k - 1).value, rows.put(x, k, value).value]

    _, x = extras.while_([scalar_constant(n - 1, i32), rhs.like(0).value], back_cond, back)
    # dl': the second superdiagonal, one place up (dl'[0] stays dl[0]); du'[n-1] stays du's
    factor_dl = dl if n == 1 else Num(stablehlo.concatenate(
        [_columns(dl, 0, 1), _columns(fill, 0, n - 1)], dimension=rank - 1))
    factor_du = select(last, du, sup)
    return [factor_dl.value, diag.value, factor_du.value, x, info.value]


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}gtsv_ffi", gtsv, static_shapes_only=True)
