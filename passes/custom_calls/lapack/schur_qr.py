"""The complex Schur form by zlahqr's single-shift QR iteration, and the QR-sweep helpers
that the geev and gees decompositions (shlo.passes.custom_calls.lapack.geev, lapack_gees) share.
shlo.passes.custom_calls.lapack.geev's docstring describes the algorithm."""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import (Num, any_over, complex_, conj, float_info, imag, max_over,
    maximum, min_over, real, real_element, select, sqrt, sum_over)
from .ffi_calls import broadcast_scalar, positions, scalar_constant, spread, q_from_reflectors
from .gehrd import hessenberg
from .syevd import diagonal_of, identity_matrix, polar


def fenced(loop_results) -> list[Num]:
    """A loop's results read through an optimization barrier (see the module's docstring)."""
    return [Num(v) for v in extras.optimization_barrier(list(loop_results))]


def cabs1(x: Num) -> Num:
    return abs(real(x)) + abs(imag(x))


class Matrices:
    """Reads and writes of rows, columns and entries at per-matrix positions ([...] i32
    tensors, or an i32 scalar for every matrix) on batches of n x n matrices."""

    def __init__(self, like: Num):
        self.rows, self.columns = positions(like)
        self.batch = like.type.rank - 2

    def full(self, index: Num) -> Num:
        """A position (scalar or per matrix) over every element."""
        dims = [] if index.type.rank == 0 else list(range(self.batch))
        return Num(stablehlo.broadcast_in_dim(index.value, broadcast_dimensions=dims,
                                              result_type=self.rows.type))

    def row(self, x: Num, i: Num) -> Num:
        """Row i of each matrix, [..., n] along the columns."""
        return sum_over(select(self.rows.eq(self.full(i)), x, x.like(0)), [self.batch])

    def column(self, x: Num, j: Num) -> Num:
        """Column j of each matrix, [..., n] along the rows."""
        return sum_over(select(self.columns.eq(self.full(j)), x, x.like(0)), [self.batch + 1])

    def entry(self, x: Num, i: Num, j: Num) -> Num:
        """x[..., i, j] as a [...] tensor (two reduces: IREE computes one over both
        dimensions wrongly here; docs/iree_gaps.md#passescustom_callslapackschur_qr)."""
        at = self.rows.eq(self.full(i)) & self.columns.eq(self.full(j))
        return sum_over(sum_over(select(at, x, x.like(0)), [self.batch + 1]), [self.batch])

    def along_rows(self, v: Num, x: Num) -> Num:
        """A [..., n] vector laid along the rows of each matrix (v[r] at every (r, c))."""
        return spread(v, x, self.batch + 1)

    def along_columns(self, v: Num, x: Num) -> Num:
        """A [..., n] vector laid along the columns of each matrix (v[c] at every (r, c))."""
        return spread(v, x, self.batch)

    def per_matrix(self, s: Num, x: Num) -> Num:
        """A [...] value over every element of x's shape (each matrix, or each vector)."""
        return Num(stablehlo.broadcast_in_dim(s.value, broadcast_dimensions=list(range(
            self.batch)), result_type=ir.RankedTensorType.get(x.type.shape, s.element)))


def _givens(x: Num, y: Num) -> tuple[Num, Num]:
    """(c, s) with [[c, s], [-conj(s), c]] [x; y] = [r; 0], c real >= 0 (as complex values);
    (1, 0) where x = y = 0."""
    size_x, phase_x = polar(x)
    size_y, _ = polar(y)
    norm = maximum(size_x, size_y)
    norm = select(norm.eq(0), norm.like(1), norm)
    ratio_x, ratio_y = size_x / norm, size_y / norm
    nu = sqrt(ratio_x * ratio_x + ratio_y * ratio_y)           # |(x, y)| / norm
    zero = (size_x + size_y).eq(0)
    c = select(zero, nu.like(1), ratio_x / nu)
    s = phase_x * conj(y) / complex_(select(zero, nu.like(1), nu * norm), 0.0)
    return complex_(c, 0.0), select(zero, s.like(0), s)


def orghr(h: Num, taus: Num) -> Num:
    """Q of the Hessenberg reduction: orgqr of the reflectors shifted one column, in the
    trailing (n-1) x (n-1) block of the identity."""
    shape = list(h.type.shape)
    n, rank = shape[-1], h.type.rank
    if n == 1:
        return identity_matrix(shape[:-2], 1, h.element)
    block = Num(stablehlo.slice(h.value, start_indices=[0] * (rank - 2) + [1, 0],
                                limit_indices=shape[:-2] + [n, n - 1]))
    q = fenced(q_from_reflectors(block, taus))[0]
    corner = Num(stablehlo.pad(q.value, scalar_constant(0, h.element), edge_padding_low=[0] * (rank - 2)
                               + [1, 1], edge_padding_high=[0] * rank,
                               interior_padding=[0] * rank))
    rows, columns = positions(corner)
    return select(rows.eq(0) & columns.eq(0), corner.like(1), corner)


def complex_schur(a: Num) -> tuple[Num, Num, Num]:
    """(T, Z, converged) with a = Z T Z^H, T upper triangular, for (batches of) complex
    matrices; `converged` is [...] i1."""
    shape = list(a.type.shape)
    n, batch = shape[-1], a.type.rank - 2
    i32 = ir.IntegerType.get_signless(32)
    at = Matrices(a)
    rows, columns = at.rows, at.columns
    tau_type = ir.RankedTensorType.get(shape[:-2] + [max(n - 1, 0)], a.element)
    if n > 2:
        reflected, taus = fenced([x.value for x in hessenberg(a, 1, n, tau_type)])
        z = orghr(reflected, taus)
        t = select(rows <= columns + 1, reflected, a.like(0))
    else:                # already Hessenberg (IREE's runtime fails on the 2x2 reduction;
                         # without the barrier it fails to compile complex<f64>)
        t, z = fenced([a.value, identity_matrix(shape[:-2], n, a.element).value])
    eps = float_info(real_element(a.element)).eps
    tiny = float_info(real_element(a.element)).tiny
    subdiagonal = rows.eq(columns + 1)
    ids = Num(stablehlo.iota(iota_dimension=batch, result_type=ir.RankedTensorType.get(
        shape[:-1], i32)))                                               # [..., n]: 0..n-1
    batch_i32 = ir.RankedTensorType.get(shape[:-2], i32)

    def deflate(t: Num) -> tuple[Num, Num, Num]:
        """t with its negligible subdiagonal entries set to zero, and each matrix's
        unreduced bottom block [lo, hi] (hi = 0 when t is triangular)."""
        diagonal = diagonal_of(t, batch)                                   # [..., n]
        near = cabs1(at.along_rows(diagonal, t)) + cabs1(at.along_columns(diagonal, t))
        small = subdiagonal & (cabs1(t) <= maximum(near * eps, near.like(tiny)))
        t = select(small, t.like(0), t)
        unreduced = any_over(subdiagonal & t.ne(t.like(0)), [batch + 1])     # [..., n]
        hi = max_over(select(unreduced, ids, ids.like(0)), [batch], 0)
        starts = (~unreduced | ids.eq(0)) & (ids <= at.per_matrix(hi, ids))
        lo = max_over(select(starts, ids, ids.like(0)), [batch], 0)
        return t, lo, hi

    def shift(t: Num, lo: Num, hi: Num, stalled: Num) -> Num:
        a11, a12 = at.entry(t, hi - 1, hi - 1), at.entry(t, hi - 1, hi)
        a21, a22 = at.entry(t, hi, hi - 1), at.entry(t, hi, hi)
        half = (a11 - a22) * 0.5
        root = sqrt(half * half + a12 * a21)
        mu1, mu2 = a22 + half + root, a22 + half - root
        wilkinson = select(cabs1(mu1 - a22) < cabs1(mu2 - a22), mu1, mu2)
        # zlahqr's exceptional shifts after 10 and 20 sweeps without a deflation
        first = at.entry(t, lo + 1, lo)
        at_lo = complex_(abs(real(first)) * 0.75, 0.0) + at.entry(t, lo, lo)
        at_hi = complex_(abs(real(a21)) * 0.75, 0.0) + a22
        return select(stalled.eq(10), at_lo, select(stalled.eq(20), at_hi, wilkinson))

    def sweep(t: Num, z: Num, lo: Num, hi: Num, mu: Num) -> tuple[Num, Num]:
        active = hi > hi.like(0)
        first, last = chase_range(lo, hi, n)

        def cond(k, *_):
            return stablehlo.compare(k, last.value, comparison_direction="LT")

        def body(k, t, z):
            k, t, z = Num(k), Num(t), Num(z)
            kb = broadcast_scalar(k, batch_i32)
            starting = kb.eq(lo)
            row_k, row_k1 = at.row(t, k), at.row(t, k + 1)
            x = select(starting, at.entry(t, k, k) - mu, at.entry(t, k, k - 1))
            y = select(starting, at.entry(t, k + 1, k), at.entry(t, k + 1, k - 1))
            c, s = _givens(x, y)
            acting = active & (kb >= lo) & (kb < hi)
            c, s = select(acting, c, c.like(1)), select(acting, s, s.like(0))
            cv, sv = at.per_matrix(c, row_k), at.per_matrix(s, row_k)
            new_k, new_k1 = cv * row_k + sv * row_k1, cv * row_k1 - conj(sv) * row_k
            kk = at.full(k)
            t = select(rows.eq(kk), at.along_columns(new_k, t),
                       select(rows.eq(kk + 1), at.along_columns(new_k1, t), t))
            bulge = rows.eq(kk + 1) & columns.eq(kk - 1) & at.per_matrix(acting & ~starting, t)
            t = select(bulge, t.like(0), t)
            t, z = (rotate_columns(m, k, cv, sv) for m in (t, z))
            return [(k + 1).value, t.value, z.value]

        _, t, z = extras.while_([first.value, t.value, z.value], cond, body)
        t, z = fenced([t, z])
        return t, z

    def rotate_columns(m: Num, k: Num, cv: Num, sv: Num) -> Num:
        """m G^H on columns k, k + 1."""
        col_k, col_k1 = at.column(m, k), at.column(m, k + 1)
        new_k, new_k1 = cv * col_k + conj(sv) * col_k1, cv * col_k1 - sv * col_k
        kk = at.full(k)
        return select(columns.eq(kk), at.along_rows(new_k, m),
                      select(columns.eq(kk + 1), at.along_rows(new_k1, m), m))

    def shifted_sweep(t: Num, z: Num, lo: Num, hi: Num, stalled: Num) -> tuple[Num, Num]:
        return sweep(t, z, lo, hi, shift(t, lo, hi, stalled))

    if n < 2:
        return t, z, broadcast_scalar(Num(scalar_constant(0, i32)), batch_i32).eq(0)
    return qr_iteration(t, z, deflate, shifted_sweep)


def chase_range(lo: Num, hi: Num, n: int) -> tuple[Num, Num]:
    """The steps [first, last) of a bulge chase over a batch: from the smallest lo of the
    matrices with an active block [lo, hi] (hi > 0) to the largest hi, at least one step
    (with these loops' barriers, a sweep that could run no step was part of what made IREE's
    runtime fail; docs/iree_gaps.md#passescustom_callslapackschur_qr)."""
    batch = list(range(lo.type.rank))
    first = min_over(select(hi > hi.like(0), lo, lo.like(n)), batch, n)
    return first, maximum(max_over(hi, batch, 0), first + 1)


def qr_iteration(t: Num, z: Num, deflate, sweep) -> tuple[Num, Num, Num]:
    """The outer loop of the QR iteration (zlahqr's and dlahqr's): `deflate(t)` -> (t, lo,
    hi) sets negligible subdiagonal entries to zero and finds each matrix's active block
    (hi = 0: none left); `sweep(t, z, lo, hi, stalled)` -> (t, z) runs one shifted sweep,
    `stalled` counting the sweeps since hi last moved (for exceptional shifts). Sweeps repeat
    until no matrix has an active block or 30 max(10, n) sweeps ran; (t, z, converged)."""
    shape = list(t.type.shape)
    n, batch = shape[-1], t.type.rank - 2
    i32 = ir.IntegerType.get_signless(32)
    limit = 30 * max(10, n)
    t, lo, hi = deflate(t)
    zero = broadcast_scalar(Num(scalar_constant(0, i32)), ir.RankedTensorType.get(shape[:-2], i32))

    def iterate_cond(sweeps, t, z, lo, hi, stalled):
        unfinished = any_over(Num(hi) > Num(hi).like(0), range(batch))
        sweeps = Num(sweeps)
        return (sweeps.eq(0) | ((sweeps < Num(scalar_constant(limit, i32))) & unfinished)).value

    def iterate(sweeps, t, z, lo, hi, stalled):
        sweeps, t, z, lo, hi, stalled = map(Num, (sweeps, t, z, lo, hi, stalled))
        t, z = sweep(t, z, lo, hi, stalled)
        t, new_lo, new_hi = deflate(t)
        stalled = select(new_hi.eq(hi), stalled + 1, stalled.like(0))
        return [(sweeps + 1).value, t.value, z.value, new_lo.value, new_hi.value, stalled.value]

    results = extras.while_([scalar_constant(0, i32), t.value, z.value, lo.value, hi.value, zero.value],
                            iterate_cond, iterate)
    _, t, z, _, hi, _ = fenced(results)
    return t, z, hi.eq(0)
