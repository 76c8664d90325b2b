"""The decomposition of `lapack_?geqp3_ffi` (? = s, d, c, z): QR with column pivoting,
`jax.scipy.linalg.qr(a, pivoting=True)` and `jax.lax.linalg.qr(a, pivoting=True)` on the CPU.

geqp3(a, jpvt) -> (a', jpvt', tau): A P = Q R as LAPACK's xgeqp3. Columns whose jpvt entry
is non-zero come first (LAPACK's swap of each such column j with the next fixed position),
then column by column in a `stablehlo.while`: step j takes column j itself while fixed
columns remain, otherwise the first column c >= j of largest norm over rows >= j (LAPACK
keeps downdated norms and picks the same column up to rounding ties), swaps it with column j
(and their jpvt entries), and applies geqr2's Householder step
(shlo.passes.custom_calls.lapack.ffi_calls.HouseholderStep). jpvt' holds 1-based column numbers, a' R above
the reflectors, tau the reflectors' factors. Every step works on whole matrices with masks,
so batches ride along.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import Num, conj, max_over, min_over, real, select, sum_over
from ..registry import register_custom_call
from .ffi_calls import HouseholderStep, broadcast_scalar, positions, scalar_constant, spread


class _Columns:
    """Column swaps on (batches of) m x n matrices and their [..., n] jpvt vectors, at
    per-matrix positions ([...] i32)."""

    def __init__(self, a: Num, jpvt: Num):
        self.rank = a.type.rank
        self.rows, self.columns = positions(a)
        self.ids = Num(stablehlo.iota(iota_dimension=self.rank - 2, result_type=jpvt.type))

    def _at(self, position: Num, like: Num) -> Num:
        """A per-matrix position laid over each matrix (or each vector)."""
        return Num(stablehlo.broadcast_in_dim(position.value, broadcast_dimensions=list(
            range(self.rank - 2)), result_type=ir.RankedTensorType.get(like.type.shape,
                                                                       position.element)))

    def swap(self, a: Num, jpvt: Num, i: Num, j: Num) -> tuple[Num, Num]:
        """Columns i and j of a, entries i and j of jpvt, traded."""
        ci, cj = self._at(i, a), self._at(j, a)
        column_i = spread(sum_over(select(self.columns.eq(ci), a, a.like(0)), [self.rank - 1]),
                           a, self.rank - 1)
        column_j = spread(sum_over(select(self.columns.eq(cj), a, a.like(0)), [self.rank - 1]),
                           a, self.rank - 1)
        a = select(self.columns.eq(ci), column_j, select(self.columns.eq(cj), column_i, a))
        vi, vj = self._at(i, jpvt), self._at(j, jpvt)
        entry_i = sum_over(select(self.ids.eq(vi), jpvt, jpvt.like(0)), [self.rank - 2])
        entry_j = sum_over(select(self.ids.eq(vj), jpvt, jpvt.like(0)), [self.rank - 2])
        jpvt = select(self.ids.eq(vi), self._at(entry_j, jpvt),
                      select(self.ids.eq(vj), self._at(entry_i, jpvt), jpvt))
        return a, jpvt


def geqp3(op: ir.Operation, a: ir.Value, jpvt: ir.Value):
    a, jpvt = Num(a), Num(jpvt)
    rank = a.type.rank
    m, n = a.type.shape[-2:]
    batch_i32 = ir.RankedTensorType.get(a.type.shape[:-2], jpvt.element)
    i32 = ir.IntegerType.get_signless(32)
    tau_type = ir.RankedTensorType(op.results[2].type)
    at = _Columns(a, jpvt)
    fixed = ~jpvt.eq(jpvt.like(0))
    numbers = at.ids + 1                                           # 1-based column numbers

    # the fixed columns to the front, in LAPACK's order of swaps
    def front_cond(j, *_):
        return stablehlo.compare(j, scalar_constant(n, i32), comparison_direction="LT")

    def front(j, a, order, is_fixed, count):
        j, a, order, is_fixed, count = map(Num, (j, a, order, is_fixed, count))
        jb = broadcast_scalar(j.to(jpvt.element), batch_i32)
        fixed_j = sum_over(select(at.ids.eq(at._at(jb, is_fixed)), is_fixed,
                                  is_fixed.like(0)), [rank - 2]).eq(1)
        swapped_a, swapped_order = at.swap(a, order, jb, count)
        moving = at._at(fixed_j, a)
        a = select(moving, swapped_a, a)
        order = select(at._at(fixed_j, order), swapped_order, order)
        count = select(fixed_j, count + 1, count)
        return [(j + 1).value, a.value, order.value, is_fixed.value, count.value]

    flags = select(fixed, jpvt.like(1), jpvt.like(0))
    zero = broadcast_scalar(Num(scalar_constant(0, jpvt.element)), batch_i32)
    _, a, order, _, fixed_count = extras.while_(
        [scalar_constant(0, i32), a.value, numbers.value, flags.value, zero.value], front_cond, front)
    a, order, fixed_count = Num(a), Num(order), Num(fixed_count)

    # pivoted Householder QR
    step = HouseholderStep(a, tau_type)
    rows, columns = at.rows, at.columns

    def cond(j, *_):
        return stablehlo.compare(j, scalar_constant(min(m, n), i32), comparison_direction="LT")

    def body(j, qr, order, taus):
        j, qr, order, taus = map(Num, (j, qr, order, taus))
        jb = broadcast_scalar(j.to(jpvt.element), batch_i32)
        jj = broadcast_scalar(j, rows.type)
        trailing = (rows >= jj) & (columns >= jj)
        norms = real(sum_over(select(trailing, qr * conj(qr), qr.like(0)), [rank - 2]))
        largest = max_over(norms, [rank - 2], -1)
        candidates = (at.ids >= at._at(jb, at.ids)) & norms.eq(at._at(largest, norms))
        first = min_over(select(candidates, at.ids, at.ids.like(n)), [rank - 2], n)
        pivot = select(jb < fixed_count, jb, first)
        qr, order = at.swap(qr, order, jb, pivot)
        qr, taus = step(j, qr, taus)
        return [(j + 1).value, qr.value, order.value, taus.value]

    taus = broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type)
    _, qr, order, taus = extras.while_([scalar_constant(0, i32), a.value, order.value, taus.value],
                                       cond, body)
    return [qr, order, taus]


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}geqp3_ffi", geqp3, static_shapes_only=True)
