"""The decomposition of `lapack_?gees_ffi` (`jax.scipy.linalg.schur`, `jax.lax.linalg.schur`)
on the CPU: A = Z T Z^H with Z orthogonal (unitary) and T the Schur form.

A complex matrix takes the complex Schur form of shlo.passes.custom_calls.lapack.schur_qr (T upper
triangular). A real matrix takes the real Schur form, as LAPACK's dgees does through dlahqr:
T is upper quasi-triangular, each complex conjugate pair of eigenvalues a 2x2 block
[[a, b], [c, a]] with b c < 0 on its diagonal.

1. Hessenberg form and its Q (shlo.passes.custom_calls.lapack.gehrd, schur_qr's orghr);
2. dlahqr's double-shift (Francis) QR iteration on the whole matrix: each sweep first sets to
   zero every subdiagonal entry with |h[i, i-1]| <= eps (|h[i-1, i-1]| + |h[i, i]|), takes the
   bottom unreduced block [lo, hi] of three or more rows (smaller ones have converged), two
   shifts from its trailing 2x2 (the eigenvalues of it; of two real ones the one closer to
   h[hi, hi], twice; dlahqr's exceptional shifts every 10 sweeps without a deflation), and
   chases the bulge down with 3x3 Householder reflectors (2x2 at the last step) applied to
   whole rows and columns of T and to Z's columns; batch members deflate independently (a
   converged member's reflectors are the identity). A member still unreduced after
   30 max(10, n) sweeps has info 1 (jax turns it into NaNs);
3. every remaining 2x2 block standardized as dlanv2 does: split by a rotation into two 1x1
   blocks when its eigenvalues are real, otherwise turned to equal diagonal entries; the
   rotation applied to the rows and columns of T and to Z.

wr and wi are T's eigenvalues in its diagonal order (a block's pair as a +- i sqrt(|b c|)),
sdim 0 (jax asks for no sorting; a sorted form is an error). Every loop's results are read
through an optimization barrier, as lapack_geev does (IREE's runtime fails otherwise;
docs/iree_gaps.md#passescustom_callslapackgeev).
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import (Num, any_over, complex_, conj, float_info, hypot, is_complex,
    max_over, maximum, minimum, real, select, sqrt, sum_over)
from ..registry import call_target, register_custom_call
from .ffi_calls import lapack_chars, broadcast_scalar, scalar_constant, reflector
from .gehrd import hessenberg
from .syevd import diagonal_of
from .schur_qr import fenced, Matrices, orghr, chase_range, complex_schur, qr_iteration


def _sign(x: Num) -> Num:
    """Fortran's SIGN(1, x): 1 for x >= 0 (and +-0), else -1."""
    return select(x >= x.like(0), x.like(1), x.like(-1))


class _Lines:
    """Updates of a few adjacent rows (or columns) k, k+1, ... of batches of n x n matrices,
    at a per-matrix step position k."""

    def __init__(self, at: Matrices, rows: bool):
        self.at, self.rows = at, rows

    def _get(self, m: Num, k: Num, count: int) -> list[Num]:
        read = self.at.row if self.rows else self.at.column
        return [read(m, k + i) for i in range(count)]

    def _put(self, m: Num, k: Num, lines: list[Num]) -> Num:
        at, kk = self.at, self.at.full(k)
        where, spread = (at.rows, at.along_columns) if self.rows else (at.columns, at.along_rows)
        for i in reversed(range(len(lines))):
            m = select(where.eq(kk + i), spread(lines[i], m), m)
        return m

    def reflect(self, m: Num, k: Num, tau: Num, v2: Num, v3: Num) -> Num:
        """(I - tau v v^T) m on rows k, k+1, k+2 (m (I - tau v v^T) on those columns) with
        v = (1, v2, v3) ([...] each)."""
        lines = self._get(m, k, 3)
        tau, v2, v3 = (self.at.per_matrix(s, lines[0]) for s in (tau, v2, v3))
        w = tau * (lines[0] + v2 * lines[1] + v3 * lines[2])
        return self._put(m, k, [lines[0] - w, lines[1] - v2 * w, lines[2] - v3 * w])

    def combine(self, m: Num, k: Num, g: tuple[tuple[Num, Num], tuple[Num, Num]]) -> Num:
        """Rows (columns) k, k+1 replaced by g00 x_k + g01 x_k1 and g10 x_k + g11 x_k1 (g's
        entries [...] each)."""
        x0, x1 = self._get(m, k, 2)
        (g00, g01), (g10, g11) = ((self.at.per_matrix(e, x0) for e in row) for row in g)
        return self._put(m, k, [g00 * x0 + g01 * x1, g10 * x0 + g11 * x1])

    def rotate(self, m: Num, k: Num, cs: Num, sn: Num) -> Num:
        """BLAS drot on rows (columns) k, k+1: (cs x_k + sn x_k1, cs x_k1 - sn x_k)."""
        return self.combine(m, k, ((cs, sn), (-sn, cs)))


def _shifted(v: Num, by: int) -> Num:
    """v[..., i - by] at i (zero where that is outside) for a [..., n] vector, by = +-1."""
    rank, n = v.type.rank, v.type.shape[-1]
    kept = stablehlo.slice(v.value, start_indices=[0] * (rank - 1) + [max(-by, 0)],
                           limit_indices=list(v.type.shape[:-1]) + [n - max(by, 0)])
    return Num(stablehlo.pad(kept, scalar_constant(0, v.element),
                             edge_padding_low=[0] * (rank - 1) + [max(by, 0)],
                             edge_padding_high=[0] * (rank - 1) + [max(-by, 0)],
                             interior_padding=[0] * rank))


def _francis(t: Num, z: Num, at: Matrices) -> tuple[Num, Num, Num]:
    """dlahqr's double-shift QR iteration on Hessenberg T (step 2 of the module's docstring):
    (T quasi-triangular with unstandardized 2x2 blocks, Z, converged)."""
    shape = list(t.type.shape)
    n, batch = shape[-1], t.type.rank - 2
    i32 = ir.IntegerType.get_signless(32)
    info = float_info(t.element)
    eps, tiny = info.eps, info.tiny
    subdiagonal = at.rows.eq(at.columns + 1)
    ids = Num(stablehlo.iota(iota_dimension=batch, result_type=ir.RankedTensorType.get(
        shape[:-1], i32)))                                               # [..., n]: 0..n-1
    batch_i32 = ir.RankedTensorType.get(shape[:-2], i32)
    rows, columns = _Lines(at, rows=True), _Lines(at, rows=False)

    def deflate(t: Num) -> tuple[Num, Num, Num]:
        """t with its negligible subdiagonal entries set to zero, and each matrix's bottom
        unreduced block of three or more rows [lo, hi] (hi = 0 when there is none)."""
        diagonal = diagonal_of(t, batch)
        near = abs(at.along_rows(diagonal, t)) + abs(at.along_columns(diagonal, t))
        t = select(subdiagonal & (abs(t) <= maximum(near * eps, near.like(tiny))), t.like(0), t)
        unreduced = select(any_over(subdiagonal & t.ne(t.like(0)), [batch + 1]),
                           ids.like(1), ids.like(0))                     # h[i, i-1] != 0
        bottoms = unreduced.eq(1) & _shifted(unreduced, 1).eq(1)
        hi = max_over(select(bottoms, ids, ids.like(0)), [batch], 0)
        starts = (unreduced.eq(0) | ids.eq(0)) & (ids <= at.per_matrix(hi, ids))
        lo = max_over(select(starts, ids, ids.like(0)), [batch], 0)
        return t, lo, hi

    def first_column(t: Num, lo: Num, hi: Num, stalled: Num) -> tuple[Num, Num, Num]:
        """dlahqr's shifts and the first column of (H - s1)(H - s2) at lo, scaled."""
        e = lambda i, j: at.entry(t, i, j)                               # noqa: E731
        h11, h12, h21, h22 = e(hi - 1, hi - 1), e(hi - 1, hi), e(hi, hi - 1), e(hi, hi)
        sweep = stalled + 1
        bottom = (sweep % 20).eq(0)
        top = (sweep % 10).eq(0) & ~bottom
        size = select(bottom, abs(h21) + abs(e(hi - 1, hi - 2)),
                      abs(e(lo + 1, lo)) + abs(e(lo + 2, lo + 1)))
        exceptional = bottom | top
        base = select(bottom, h22, e(lo, lo))
        h11 = select(exceptional, size * 0.75 + base, h11)
        h12 = select(exceptional, size * -0.4375, h12)
        h21 = select(exceptional, size, h21)
        h22 = select(exceptional, h11, h22)
        scale = abs(h11) + abs(h12) + abs(h21) + abs(h22)
        nonzero = scale.ne(scale.like(0))
        scale = select(nonzero, scale, scale.like(1))
        h11, h12, h21, h22 = (x / scale for x in (h11, h12, h21, h22))
        trace = (h11 + h22) * 0.5
        det = (h11 - trace) * (h22 - trace) - h12 * h21
        root = sqrt(abs(det))
        pair = det >= det.like(0)                              # a complex conjugate pair
        one, two = trace + root, trace - root
        closer = select(abs(one - h22) <= abs(two - h22), one, two)
        rt1r = select(pair, trace, closer) * scale
        rt1i = select(pair, root, root.like(0)) * scale
        rt1r, rt1i = select(nonzero, rt1r, rt1r.like(0)), select(nonzero, rt1i, rt1i.like(0))
        rt2r, rt2i = rt1r, -rt1i
        hll, hl1l, hll1, hl1l1, hl2l1 = (e(lo, lo), e(lo + 1, lo), e(lo, lo + 1),
                                         e(lo + 1, lo + 1), e(lo + 2, lo + 1))
        s = abs(hll - rt2r) + abs(rt2i) + abs(hl1l)
        s = select(s.eq(s.like(0)), s.like(1), s)
        h21s = hl1l / s
        v1 = h21s * hll1 + (hll - rt1r) * ((hll - rt2r) / s) - rt1i * (rt2i / s)
        v2 = h21s * (hll + hl1l1 - rt1r - rt2r)
        v3 = h21s * hl2l1
        s = abs(v1) + abs(v2) + abs(v3)
        s = select(s.eq(s.like(0)), s.like(1), s)
        return v1 / s, v2 / s, v3 / s

    def sweep(t: Num, z: Num, lo: Num, hi: Num, start: tuple[Num, Num, Num]):
        active = hi > hi.like(0)
        first, last = chase_range(lo, hi, n)

        def cond(k, *_):
            return stablehlo.compare(k, last.value, comparison_direction="LT")

        def body(k, t, z):
            k, t, z = Num(k), Num(t), Num(z)
            kb = broadcast_scalar(k, batch_i32)
            starting = kb.eq(lo)
            three = kb < hi - 1                                   # else the last, 2x2 step
            x = select(starting, start[0], at.entry(t, k, k - 1))
            y = select(starting, start[1], at.entry(t, k + 1, k - 1))
            w = select(three, select(starting, start[2], at.entry(t, k + 2, k - 1)), x.like(0))
            acting = active & (kb >= lo) & (kb < hi)
            reflect, beta, tau, scale = reflector(x, y * y + w * w, x)
            keep = acting & reflect
            tau = select(keep, tau, tau.like(0))
            v2, v3 = select(keep, y * scale, y.like(0)), select(keep, w * scale, w.like(0))
            t = columns.reflect(rows.reflect(t, k, tau, v2, v3), k, tau, v2, v3)
            z = columns.reflect(z, k, tau, v2, v3)
            # the bulge's column k - 1: beta on the subdiagonal, zeros below it
            kk, chased = at.full(k), at.per_matrix(keep & ~starting, t)
            column = at.columns.eq(kk - 1) & chased
            t = select(column & at.rows.eq(kk), at.per_matrix(beta, t), t)
            t = select(column & (at.rows.eq(kk + 1) | at.rows.eq(kk + 2)), t.like(0), t)
            return [(k + 1).value, t.value, z.value]

        _, t, z = fenced(extras.while_([first.value, t.value, z.value], cond, body))
        return t, z

    def shifted_sweep(t: Num, z: Num, lo: Num, hi: Num, stalled: Num) -> tuple[Num, Num]:
        return sweep(t, z, lo, hi, first_column(t, lo, hi, stalled))

    if n < 3:                                   # 1x1 and 2x2 blocks only: nothing to sweep
        return deflate(t)[0], z, broadcast_scalar(Num(scalar_constant(0, i32)), batch_i32).eq(0)
    return qr_iteration(t, z, deflate, shifted_sweep)


def _standard_2x2(a: Num, b: Num, c: Num, d: Num, eps: float):
    """LAPACK's dlanv2: the rotation (cs, sn) and block [[a', b'], [c', d']] = G B G^T,
    G = [[cs, sn], [-sn, cs]], upper triangular when B's eigenvalues are real, otherwise
    with a' = d' and b' c' < 0 (per matrix, [...] each)."""
    one, zero = a.like(1), a.like(0)
    # the general case
    temp = a - d
    p = temp * 0.5
    bcmax = maximum(abs(b), abs(c))
    bcmis = minimum(abs(b), abs(c)) * _sign(b) * _sign(c)
    scale = maximum(abs(p), bcmax)
    safe_scale = select(scale.eq(zero), one, scale)
    zz = (p / safe_scale) * p + (bcmax / safe_scale) * bcmis
    real_pair = zz >= zz.like(4 * eps)
    # real eigenvalues: one rotation to upper triangular
    z1 = p + _sign(p) * sqrt(scale) * sqrt(abs(zz))
    safe_z1 = select(z1.eq(zero), one, z1)
    tau_r = hypot(abs(c), abs(z1))
    safe_tau_r = select(tau_r.eq(zero), one, tau_r)
    real_block = (d + z1, b - c, zero, d - (bcmax / safe_z1) * bcmis)
    real_turn = (z1 / safe_tau_r, c / safe_tau_r)
    # complex (or nearly equal real) eigenvalues: equal diagonal entries first
    sigma = b + c
    tau_c = hypot(abs(sigma), abs(temp))
    safe_tau_c = select(tau_c.eq(zero), one, tau_c)
    cs = sqrt((one + abs(sigma) / safe_tau_c) * 0.5)
    sn = -(p / (safe_tau_c * cs)) * _sign(sigma)
    aa, bb = a * cs + b * sn, -a * sn + b * cs
    cc, dd = c * cs + d * sn, -c * sn + d * cs
    b2, c2 = bb * cs + dd * sn, -aa * sn + cc * cs
    mid = ((aa * cs + cc * sn) + (-bb * sn + dd * cs)) * 0.5
    # ... then two real eigenvalues after all (b2, c2 of one sign): split them
    same_sign = c2.ne(zero) & b2.ne(zero) & _sign(b2).eq(_sign(c2))
    sab, sac = sqrt(abs(b2)), sqrt(abs(c2))
    root = _sign(c2) * sab * sac
    tau3 = one / sqrt(select(same_sign, abs(b2 + c2), one))
    cs1, sn1 = sab * tau3, sac * tau3
    split_block = (mid + root, b2 - c2, zero, mid - root)
    split_turn = (cs * cs1 - sn * sn1, cs * sn1 + sn * cs1)
    # ... or c2 != 0 = b2: a swap
    swap = c2.ne(zero) & b2.eq(zero)
    swap_block, swap_turn = (mid, -c2, zero, mid), (-sn, cs)
    pair_block = tuple(select(same_sign, s, select(swap, w, x)) for s, w, x in
                       zip(split_block, swap_block, (mid, b2, c2, mid)))
    pair_turn = tuple(select(same_sign, s, select(swap, w, x)) for s, w, x in
                      zip(split_turn, swap_turn, (cs, sn)))
    general_block = tuple(select(real_pair, r, x) for r, x in zip(real_block, pair_block))
    general_turn = tuple(select(real_pair, r, x) for r, x in zip(real_turn, pair_turn))
    # the special cases: c = 0 (already triangular), b = 0 (swap rows and columns), and
    # a = d with b, c of opposite signs (already standard)
    done = c.eq(zero) | (temp.eq(zero) & _sign(b).ne(_sign(c)))
    swapped = ~c.eq(zero) & b.eq(zero)
    block = tuple(select(done, x, select(swapped, s, g)) for x, s, g in
                  zip((a, b, c, d), (d, -c, zero, a), general_block))
    turn = tuple(select(done, x, select(swapped, s, g)) for x, s, g in
                 zip((one, zero), (zero, one), general_turn))
    return block, turn


def _standardize(t: Num, z: Num, at: Matrices) -> tuple[Num, Num]:
    """Step 3 of the module's docstring: each 2x2 block of quasi-triangular T through
    dlanv2, from the top down."""
    n = t.type.shape[-1]
    i32 = ir.IntegerType.get_signless(32)
    eps = float_info(t.element).eps
    rows, columns = _Lines(at, rows=True), _Lines(at, rows=False)

    def cond(k, *_):
        return stablehlo.compare(k, scalar_constant(n - 1, i32), comparison_direction="LT")

    def body(k, t, z):
        k, t, z = Num(k), Num(t), Num(z)
        a, b, c, d = (at.entry(t, k + i, k + j) for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
        block, (cs, sn) = _standard_2x2(a, b, c, d, eps)
        acting = c.ne(c.like(0))
        cs, sn = select(acting, cs, cs.like(1)), select(acting, sn, sn.like(0))
        t = columns.rotate(rows.rotate(t, k, cs, sn), k, cs, sn)
        z = columns.rotate(z, k, cs, sn)
        kk = at.full(k)
        for (i, j), value in zip(((0, 0), (0, 1), (1, 0), (1, 1)), block):
            at_ij = at.rows.eq(kk + i) & at.columns.eq(kk + j) & at.per_matrix(acting, t)
            t = select(at_ij, at.per_matrix(value, t), t)
        return [(k + 1).value, t.value, z.value]

    _, t, z = fenced(extras.while_([scalar_constant(0, i32), t.value, z.value], cond, body))
    return t, z


def real_schur(a: Num) -> tuple[Num, Num, Num]:
    """(T, Z, converged) with a = Z T Z^T, T in real Schur form, for (batches of) real
    matrices; `converged` is [...] i1."""
    shape = list(a.type.shape)
    n = shape[-1]
    at = Matrices(a)
    tau_type = ir.RankedTensorType.get(shape[:-2] + [max(n - 1, 0)], a.element)
    reflected, taus = fenced([x.value for x in hessenberg(a, 1, n, tau_type)])
    z = orghr(reflected, taus)
    t = select(at.rows <= at.columns + 1, reflected, a.like(0))
    t, z, converged = _francis(t, z, at)
    if n > 1:
        t, z = _standardize(t, z, at)
    return t, z, converged


def _conj(g: tuple[tuple[Num, Num], tuple[Num, Num]]) -> tuple[tuple[Num, Num], tuple[Num, Num]]:
    """The entrywise conjugate of a 2x2 rotation (row by row)."""
    (a, b), (c, d) = g
    return (conj(a), conj(b)), (conj(c), conj(d))


def triangularized(t: Num, z: Num) -> tuple[Num, Num]:
    """The complex Schur form (T', Z') of a real one (scipy's rsf2csf): each standardized 2x2
    block [[a, b], [c, a]] turned upper triangular by the unitary G whose adjoint's first
    column is the block's eigenvector of a + i w (w = sqrt(|b c|)), so that the pair comes
    out in dgeev's order, + first; T' = G T G^H on those rows and columns, Z' = Z G^H. Real
    eigenvalues stay exactly real on T's diagonal."""
    n = t.type.shape[-1]
    at = Matrices(t)
    i32 = ir.IntegerType.get_signless(32)
    t, z = complex_(t, 0.0), complex_(z, 0.0)
    rows, columns = _Lines(at, rows=True), _Lines(at, rows=False)

    def cond(k, *_):
        return stablehlo.compare(k, scalar_constant(n - 1, i32), comparison_direction="LT")

    def body(k, t, z):
        k, t, z = Num(k), Num(t), Num(z)
        a, b = real(at.entry(t, k, k)), real(at.entry(t, k, k + 1))
        c = real(at.entry(t, k + 1, k))
        acting = c.ne(c.like(0))
        w = sqrt(abs(b)) * sqrt(abs(c))
        norm = hypot(abs(b), w)
        norm = select(acting, norm, norm.like(1))
        v0 = complex_(select(acting, b / norm, b.like(1)), 0.0)
        v1 = complex_(b.like(0), select(acting, w / norm, w.like(0)))
        g = ((conj(v0), conj(v1)), (-v1, v0))                         # G (identity if idle)
        t = columns.combine(rows.combine(t, k, g), k, _conj(g))
        z = columns.combine(z, k, _conj(g))
        kk, idle = at.full(k), at.per_matrix(~acting, t)
        for (i, j), value in (((1, 0), complex_(a.like(0), 0.0)), ((0, 0), complex_(a, w)),
                              ((1, 1), complex_(a, -w))):
            t = select(at.rows.eq(kk + i) & at.columns.eq(kk + j) & ~idle,
                       at.per_matrix(value, t), t)
        return [(k + 1).value, t.value, z.value]

    if n < 2:
        return t, z
    _, t, z = fenced(extras.while_([scalar_constant(0, i32), t.value, z.value], cond, body))
    return t, z


def eigenvalues(t: Num) -> tuple[Num, Num]:
    """(wr, wi) of a real Schur form: its diagonal, and +- sqrt(|b|) sqrt(|c|) for each 2x2
    block [[a, b], [c, a]] (dlanv2's order: + at the block's first row)."""
    batch = t.type.rank - 2
    at = Matrices(t)
    wr = diagonal_of(t, batch)
    sub = sum_over(select(at.rows.eq(at.columns + 1), t, t.like(0)), [batch + 1])  # t[i, i-1]
    sup = sum_over(select(at.columns.eq(at.rows + 1), t, t.like(0)), [batch])      # t[i-1, i]
    root = sqrt(abs(sub)) * sqrt(abs(sup))                       # at each block's second row
    return wr, _shifted(root, -1) - root


def gees(op: ir.Operation, a: ir.Value):
    a = Num(a)
    if lapack_chars(op).get("sort", "N") != "N":
        raise PassError(f"stablehlo.custom_call @{call_target(op)}: sorted Schur forms are not "
                        f"supported (jax does not emit them)", at=op)
    batch = a.type.rank - 2
    if is_complex(a.element):
        t, z, converged = complex_schur(a)
        values = [diagonal_of(t, batch).value]
    else:
        t, z, converged = real_schur(a)
        values = [v.value for v in eigenvalues(t)]
    sdim_type, info_type = (ir.RankedTensorType(r.type) for r in op.results[-2:])
    info = select(converged, broadcast_scalar(Num(scalar_constant(0, info_type.element_type)), info_type),
                  broadcast_scalar(Num(scalar_constant(1, info_type.element_type)), info_type))
    return [t.value, z.value, *values,
            broadcast_scalar(Num(scalar_constant(0, sdim_type.element_type)), sdim_type).value, info.value]


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}gees_ffi", gees, static_shapes_only=True)
