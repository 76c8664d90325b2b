"""The decomposition of `lapack_?geev_ffi` (`jnp.linalg.eig`, `eigvals`) on the CPU, and the
complex Schur form that it and the complex gees (shlo.passes.lapack_gees) share.

geev goes through the complex Schur form A = Z T Z^H, as LAPACK's zgeev does; a real input
takes dgeev's real Schur form (shlo.passes.lapack_gees) made complex block by block
(`triangularized`, scipy's rsf2csf), so its eigenvalues come in LAPACK's order with real ones
exactly real, and steps 3 below follow. For a complex input:

1. Hessenberg form: xgehd2's reflectors (shlo.passes.lapack_gehrd) and Q from them
   (orgqr on the reflectors shifted one column, as LAPACK's orghr);
2. zlahqr's single-shift QR iteration on the whole matrix: each sweep first sets to zero
   every subdiagonal entry with |h[i, i-1]| <= eps (|h[i-1, i-1]| + |h[i, i]|) (|.| as
   LAPACK's CABS1), takes the bottom unreduced block [lo, hi], a Wilkinson shift from its
   trailing 2x2 (the eigenvalue closer to h[hi, hi]; zlahqr's exceptional shifts after 10
   and 20 sweeps without a deflation), and chases the bulge with Givens rotations applied to
   whole rows and columns of T and to Z's columns; batch members deflate independently (a
   converged member's rotations are the identity). A member still unreduced after
   30 max(10, n) sweeps has info 1 (jax turns it into NaNs);
3. eigenvectors (ztrevc): T's right eigenvectors by back substitution (x[k] = 1, a tiny
   denominator T[i, i] - T[k, k] raised to eps |T[k, k]| as LAPACK's smin), Z times them;
   left eigenvectors the same on the reversed T^H; each normalised as xgeev does: unit
   2-norm, then turned so that its largest component is real and positive.

Every loop's results (Hessenberg reduction, Q, both Schur loops, eigenvectors) are read
through an optimization barrier: without them, or with barriers after the Schur loops only,
IREE 3.13's runtime failed at the call for some inputs ("indirect buffer reference slot 0 is
out range of the declared binding capacity of the command buffer", in
hal.command_buffer.copy_buffer; random 5x5 matrices without barriers, a triangular 2x2 with
the Schur loops' only). A 2x2 matrix is Hessenberg already and skips the reduction, after
which the same failure met every 2x2 (f32 eig and eigvals, 2026-11-26).

LAPACK's order of eigenvalues is its deflation order, which this follows where the QR
iteration deflates alike: for real inputs jax's (LAPACK's) eigenvalues matched elementwise
on every random matrix tried; eigenvectors are complex columns as geev returns them.
"""
from __future__ import annotations

from iree.compiler import ir

from ..dialect import stablehlo
from . import chlo_stablehlo_extras as extras
from .chlo_expr import (Num, any_over, complex_, conj, float_info, imag, is_complex, max_over,
                        maximum, min_over, real, real_element, select, sqrt, sum_over)
from .custom_call import register_custom_call
from .lapack_calls import _chars, _full, _positions, _scalar, _spread, q_from_reflectors
from .lapack_gehrd import hessenberg
from .lapack_syevd import _adjoint, _diagonal, _identity, _matmul, polar


def _fenced(loop_results) -> list[Num]:
    """A loop's results read through an optimization barrier (see the module's docstring)."""
    return [Num(v) for v in extras.optimization_barrier(list(loop_results))]


def _cabs1(x: Num) -> Num:
    return abs(real(x)) + abs(imag(x))


class _Matrices:
    """Reads and writes of rows, columns and entries at per-matrix positions ([...] i32
    tensors, or an i32 scalar for every matrix) on batches of n x n matrices."""

    def __init__(self, like: Num):
        self.rows, self.columns = _positions(like)
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
        """x[..., i, j] as a [...] tensor (two reduces: one over both dimensions came out
        wrong from IREE 3.13 in householder_qr)."""
        at = self.rows.eq(self.full(i)) & self.columns.eq(self.full(j))
        return sum_over(sum_over(select(at, x, x.like(0)), [self.batch + 1]), [self.batch])

    def along_rows(self, v: Num, x: Num) -> Num:
        """A [..., n] vector laid along the rows of each matrix (v[r] at every (r, c))."""
        return _spread(v, x, self.batch + 1)

    def along_columns(self, v: Num, x: Num) -> Num:
        """A [..., n] vector laid along the columns of each matrix (v[c] at every (r, c))."""
        return _spread(v, x, self.batch)

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


def _orghr(h: Num, taus: Num) -> Num:
    """Q of the Hessenberg reduction: orgqr of the reflectors shifted one column, in the
    trailing (n-1) x (n-1) block of the identity."""
    shape = list(h.type.shape)
    n, rank = shape[-1], h.type.rank
    if n == 1:
        return _identity(shape[:-2], 1, h.element)
    block = Num(stablehlo.slice(h.value, start_indices=[0] * (rank - 2) + [1, 0],
                                limit_indices=shape[:-2] + [n, n - 1]))
    q = _fenced(q_from_reflectors(block, taus))[0]
    corner = Num(stablehlo.pad(q.value, _scalar(0, h.element), edge_padding_low=[0] * (rank - 2)
                               + [1, 1], edge_padding_high=[0] * rank,
                               interior_padding=[0] * rank))
    rows, columns = _positions(corner)
    return select(rows.eq(0) & columns.eq(0), corner.like(1), corner)


def complex_schur(a: Num) -> tuple[Num, Num, Num]:
    """(T, Z, converged) with a = Z T Z^H, T upper triangular, for (batches of) complex
    matrices; `converged` is [...] i1."""
    shape = list(a.type.shape)
    n, batch = shape[-1], a.type.rank - 2
    i32 = ir.IntegerType.get_signless(32)
    at = _Matrices(a)
    rows, columns = at.rows, at.columns
    tau_type = ir.RankedTensorType.get(shape[:-2] + [max(n - 1, 0)], a.element)
    if n > 2:
        reflected, taus = _fenced([x.value for x in hessenberg(a, 1, n, tau_type)])
        z = _orghr(reflected, taus)
        t = select(rows <= columns + 1, reflected, a.like(0))
    else:                # already Hessenberg (IREE 3.13's runtime failed on the 2x2 reduction;
                         # without the barrier it failed to compile complex<f64>)
        t, z = _fenced([a.value, _identity(shape[:-2], n, a.element).value])
    eps = float_info(real_element(a.element)).eps
    tiny = float_info(real_element(a.element)).tiny
    subdiagonal = rows.eq(columns + 1)
    ids = Num(stablehlo.iota(iota_dimension=batch, result_type=ir.RankedTensorType.get(
        shape[:-1], i32)))                                               # [..., n]: 0..n-1
    batch_i32 = ir.RankedTensorType.get(shape[:-2], i32)

    def deflate(t: Num) -> tuple[Num, Num, Num]:
        """t with its negligible subdiagonal entries set to zero, and each matrix's
        unreduced bottom block [lo, hi] (hi = 0 when t is triangular)."""
        diagonal = _diagonal(t, batch)                                   # [..., n]
        near = _cabs1(at.along_rows(diagonal, t)) + _cabs1(at.along_columns(diagonal, t))
        small = subdiagonal & (_cabs1(t) <= maximum(near * eps, near.like(tiny)))
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
        wilkinson = select(_cabs1(mu1 - a22) < _cabs1(mu2 - a22), mu1, mu2)
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
            kb = _full(k, batch_i32)
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
        t, z = _fenced([t, z])
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
        return t, z, _full(Num(_scalar(0, i32)), batch_i32).eq(0)
    return qr_iteration(t, z, deflate, shifted_sweep)


def chase_range(lo: Num, hi: Num, n: int) -> tuple[Num, Num]:
    """The steps [first, last) of a bulge chase over a batch: from the smallest lo of the
    matrices with an active block [lo, hi] (hi > 0) to the largest hi, at least one step
    (with these loops' barriers, a sweep that could run no step was part of what made IREE
    3.13's runtime fail; see the module docstring)."""
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
    zero = _full(Num(_scalar(0, i32)), ir.RankedTensorType.get(shape[:-2], i32))

    def iterate_cond(sweeps, t, z, lo, hi, stalled):
        unfinished = any_over(Num(hi) > Num(hi).like(0), range(batch))
        sweeps = Num(sweeps)
        return (sweeps.eq(0) | ((sweeps < Num(_scalar(limit, i32))) & unfinished)).value

    def iterate(sweeps, t, z, lo, hi, stalled):
        sweeps, t, z, lo, hi, stalled = map(Num, (sweeps, t, z, lo, hi, stalled))
        t, z = sweep(t, z, lo, hi, stalled)
        t, new_lo, new_hi = deflate(t)
        stalled = select(new_hi.eq(hi), stalled + 1, stalled.like(0))
        return [(sweeps + 1).value, t.value, z.value, new_lo.value, new_hi.value, stalled.value]

    results = extras.while_([_scalar(0, i32), t.value, z.value, lo.value, hi.value, zero.value],
                            iterate_cond, iterate)
    _, t, z, _, hi, _ = _fenced(results)
    return t, z, hi.eq(0)


def _right_eigenvectors(t: Num) -> Num:
    """The columns x_k with T x_k = T[k, k] x_k, x_k[k] = 1 and zeros below k, for upper
    triangular T (ztrevc's back substitution, rows from the bottom up)."""
    shape = list(t.type.shape)
    n, batch = shape[-1], t.type.rank - 2
    at = _Matrices(t)
    i32 = ir.IntegerType.get_signless(32)
    diagonal = _diagonal(t, batch)
    eps = float_info(real_element(t.element)).eps
    tiny = float_info(real_element(t.element)).tiny
    smin = maximum(_cabs1(diagonal) * eps, real(diagonal).like(tiny))          # per column k
    identity = select(at.rows.eq(at.columns), t.like(1), t.like(0))

    def cond(i, _):
        return stablehlo.compare(i, _scalar(0, i32), comparison_direction="GE")

    def body(i, x):
        i, x = Num(i), Num(x)
        row = at.row(t, i)                                        # T[i, j] along j
        products = sum_over(at.along_rows(row, x) * x, [batch])  # sum_j T[i, j] x[j, k]
        denominator = at.per_matrix(at.entry(t, i, i), diagonal) - diagonal
        small = _cabs1(denominator) < smin
        denominator = select(small, complex_(smin, 0.0), denominator)
        value = -products / denominator
        later = at.columns > at.full(i)
        x = select(at.rows.eq(at.full(i)) & later, at.along_columns(value, x), x)
        return [(i - 1).value, x.value]

    _, x = _fenced(extras.while_([_scalar(n - 2, i32), identity.value], cond, body))
    return x


def _reversed(x: Num) -> Num:
    rank = x.type.rank
    return Num(stablehlo.reverse(x.value, dimensions=[rank - 2, rank - 1]))


def _normalized(v: Num) -> Num:
    """Each column scaled to unit 2-norm, then turned so that its largest component (the
    first of the largest) is real and positive, as xgeev leaves them."""
    batch = v.type.rank - 2
    at = _Matrices(v)
    squares = real(v) * real(v) + imag(v) * imag(v)
    norm = sqrt(sum_over(squares, [batch]))                                  # [..., n]
    largest = max_over(squares, [batch], -1)
    n = v.type.shape[-1]
    first = select(squares.eq(at.along_columns(largest, squares)), at.rows, at.rows.like(n))
    pick = min_over(first, [batch], n)
    chosen = sum_over(select(at.rows.eq(at.along_columns(pick, at.rows)), v, v.like(0)),
                      [batch])                                              # [..., n]
    _, phase = polar(chosen)
    scale = conj(phase) / complex_(select(norm.eq(0), norm.like(1), norm), 0.0)
    return v * at.along_columns(scale, v)


def geev(op: ir.Operation, a: ir.Value):
    chars = _chars(op)
    a = Num(a)
    vector_type = ir.RankedTensorType(op.results[-2].type)
    complex_element = vector_type.element_type
    if is_complex(a.element):
        t, z, converged = complex_schur(a)
    else:                 # as dgeev: the real Schur form (LAPACK's order, real values exact)
        from .lapack_gees import real_schur, triangularized      # (it builds on this module)
        t, z, converged = real_schur(a)
        t, z = triangularized(t, z)
    batch = a.type.rank - 2
    w = _diagonal(t, batch)
    outputs = [real(w).value, imag(w).value] if len(op.results) == 5 else [w.value]
    for side in ("compute_left", "compute_right"):
        if chars.get(side, "N") != "V":
            outputs.append(_full(Num(_scalar(0, complex_element)), vector_type).value)
            continue
        if a.type.shape[-1] < 2:         # (IREE 3.13 miscompiled the 1x1 left product)
            outputs.append(_full(Num(_scalar(1, complex_element)), vector_type).value)
            continue
        if side == "compute_right":
            vectors = _right_eigenvectors(t)
        else:
            vectors = _reversed(_right_eigenvectors(_reversed(_adjoint(t, batch))))
        outputs.append(_normalized(_matmul(z, vectors, batch)).value)
    info_type = ir.RankedTensorType(op.results[-1].type)
    outputs.append(select(converged, _full(Num(_scalar(0, info_type.element_type)), info_type),
                          _full(Num(_scalar(1, info_type.element_type)), info_type)).value)
    return outputs


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}geev_ffi", geev, static_shapes_only=True)
