"""The decomposition of `lapack_?gesdd_ffi` (? = s, d, c, z): `jnp.linalg.svd` on the CPU (and
pinv, matrix_rank, norm(ord=2) through it), and of `lapack_?gesvd_ffi` (svd with
algorithm=SvdAlgorithm.QR), whose results are laid out alike.

gesdd(a) -> (a', s, u, vt, info): a = u diag(s) vt with s descending (real) and u, vt
orthogonal (unitary; full or reduced by the result types), info 0. LAPACK bidiagonalises;
this decomposition is the one-sided Jacobi method (Hestenes), as accurate and made of
whole-matrix ops:

* a wide matrix is decomposed through its adjoint (a^H = u' s v'^H gives a = v' s u'^H), so
  W (M x N) has M >= N; N is padded to even with a zero column;
* every round of the parallel cyclic schedule of shlo.passes.custom_calls.lapack.syevd
  (`Tournament`) forms the pairs' entries of G = W^H W (column norms and the inner product of
  each column with its partner) and applies the m/2 rotations that zero them to W's columns,
  W <- W J, and to V <- V J: W's columns become orthogonal without G's squared condition
  number ever being used for the result;
* sweeps repeat while some pair has |G_pq|^2 > M eps^2 G_pp G_qq (columns not yet orthogonal
  relative to their own lengths, so small singular values come out accurate), at most 40,
  and one more follows (`Tournament.sweeps`);
* V, orthonormal only to about N eps after the sweeps, is made orthonormal by one
  Newton-Schulz step and W recomputed as a V (its rotated columns are as far off);
* s is the column norms, sorted descending (a permutation matrix reorders W and V); u comes
  from a Householder QR of W (padded with zero columns to M x M): its Q, each column times
  the sign (complex: the phase) of R's diagonal, is W's normalised columns where they are not
  zero and an orthonormal completion where they are (zero singular values, full_matrices);
  vt = V^H. Batch dimensions ride along.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib.expr import (Num, any_over, conj, float_info, is_complex, real, real_element,
    select, sqrt, sum_over)
from ..registry import register_custom_call
from .ffi_calls import broadcast_scalar, positions, scalar_constant, householder_qr, q_from_reflectors
from .syevd import (Tournament, adjoint, broadcast, diagonal_of, identity_matrix, matmul, leading_block,
    orthonormalized, polar, sort_columns, swapped)


def _pad_columns(x: Num, extra: int) -> Num:
    rank = x.type.rank
    return Num(stablehlo.pad(x.value, scalar_constant(0, x.element), edge_padding_low=[0] * rank,
                             edge_padding_high=[0] * (rank - 1) + [extra],
                             interior_padding=[0] * rank))


def fit(x: Num, t: ir.RankedTensorType) -> ir.Value:
    """x's leading block in the shape of `t` (zeros when `t` asks for more than x has, or is
    a scalar: a result the call leaves unset)."""
    want, have = list(t.shape), list(x.type.shape)
    if t.rank == 0:
        return broadcast_scalar(Num(scalar_constant(0, x.element)), t).value
    if want == have:
        return x.value
    if want[-2] <= have[-2] and want[-1] <= have[-1]:
        return leading_block(x, want[-2], want[-1]).value
    return broadcast_scalar(Num(scalar_constant(0, x.element)), t).value


def one_sided_jacobi(W: Num, batch: int) -> tuple[Num, Num]:
    """(W J, J): W's columns made orthogonal by rotations J (N even)."""
    element, N = W.element, W.type.shape[-1]
    M = W.type.shape[-2]
    tournament = Tournament(N, element)
    tolerance = M * float_info(real_element(element)).eps ** 2

    def gram(W: Num) -> Num:
        return matmul(adjoint(W, batch), W, batch)

    def unconverged(W: Num) -> Num:
        G = gram(W)
        d = real(diagonal_of(G, batch))
        squares = real(G * conj(G))
        matrix = squares.type
        dp = broadcast(d, matrix, list(range(batch)) + [batch])
        dq = broadcast(d, matrix, list(range(batch)) + [batch + 1])
        rows, columns = positions(G)
        bad = rows.ne(columns) & (squares > dp * dq * tolerance)
        return any_over(bad, range(batch + 2))

    def step(W: Num, V: Num) -> tuple[Num, Num]:
        """One round: the pairs' entries of W^H W, their rotations, every column one seat on."""
        J = tournament.rotation(sum_over(conj(W) * W, [batch]),
                                sum_over(conj(W) * swapped(W, batch + 1), [batch]))
        return (tournament.next_round(J.columns(W), batch + 1),
                tournament.next_round(J.columns(V), batch + 1))

    return tournament.sweeps(W, identity_matrix(list(W.type.shape[:-2]), N, element), step,
                             unconverged)


def gesdd(op: ir.Operation, a: ir.Value):
    s, u, vt = svd(Num(a))
    info = stablehlo.constant(0, result_type=op.results[4].type)
    return [a, s.value, fit(u, ir.RankedTensorType(op.results[2].type)),
            fit(vt, ir.RankedTensorType(op.results[3].type)), info]


def svd(a: Num) -> tuple[Num, Num, Num]:
    """(s, u, vt) with a = u diag(s) vt, s descending, u and vt square (full matrices)."""
    shape = list(a.type.shape)
    batch, (m, n) = len(shape) - 2, shape[-2:]
    element, batch_shape = a.element, shape[:-2]
    wide = m < n
    W = adjoint(a, batch) if wide else a
    M, N = (n, m) if wide else (m, n)
    _, V = one_sided_jacobi(_pad_columns(W, 1) if N % 2 else W, batch)
    if N % 2:       # the padded column: a zero no rotation couples
        V = leading_block(V, N, N)
    # W's columns again from the orthonormalized rotations: rotated step by step they (and V)
    # are about N eps off; recomputed, s and u are as accurate as LAPACK's
    V = orthonormalized(V, batch)
    W = matmul(W, V, batch)
    norms = sqrt(real(diagonal_of(matmul(adjoint(W, batch), W, batch), batch)))  # [..., N]
    s, (W, V) = sort_columns(norms, batch, "GT", W, V)    # descending; W, V follow
    # u: Q of W's QR, its columns signed (given the phase) of R's diagonal
    padded = _pad_columns(W, M - N) if M > N else W
    qr, taus = householder_qr(padded, ir.RankedTensorType.get(batch_shape + [M], element))
    Q = Num(q_from_reflectors(Num(qr), Num(taus))[0])
    r = diagonal_of(Num(qr), batch)
    if is_complex(element):
        _, phase = polar(r)
    else:
        phase = select(r < 0, r.like(-1), r.like(1))
    U = Q * broadcast(phase, Q.type, list(range(batch)) + [batch + 1])
    u, vt = (V, adjoint(U, batch)) if wide else (U, adjoint(V, batch))
    return s, u, vt


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}gesdd_ffi", gesdd, static_shapes_only=True)
    register_custom_call(f"lapack_{_p}gesvd_ffi", gesdd, static_shapes_only=True)
