"""The decomposition of `lapack_?syevd_ffi` (? = s, d) and `lapack_?heevd_ffi` (? = c, z):
`jnp.linalg.eigh` / `eigvalsh` on the CPU.

syevd(a) -> (vectors, w, info): the eigenvalues of the symmetric (Hermitian) matrix in a's
uplo triangle, ascending and real, and orthonormal (unitary) eigenvectors as columns (info 0).
LAPACK reduces to tridiagonal form; this decomposition is the parallel cyclic Jacobi method
(Brent-Luk), which is as accurate and maps onto whole-matrix ops:

* the matrix is made symmetric from its uplo triangle, and padded to an even size m with a
  zero row and column (an index that no rotation ever couples, dropped at the end);
* a sweep is m - 1 rounds of a round-robin tournament (a static schedule): each round pairs
  every index with another, and applies all m/2 rotations at once, A <- J^T A J, V <- V J,
  each rotation zeroing its a[p, q] (Golub & Van Loan's sym.schur2: t = sign(tau) /
  (|tau| + sqrt(1 + tau^2)), tau = (a_qq - a_pp) / (2 a_pq), c = 1 / sqrt(1 + t^2),
  s = t c). The matrices are kept in a layout where a round's pairs are neighbours, so a
  round is elementwise ops on each row (column) and its partner's, and a fixed permutation
  (a gather of constant indices) moves the indices on to the next round's pairs: O(m^2)
  work a round. A Hermitian pair [[a, b], [conj b, d]] is the real [[a, |b|], [|b|, d]]
  after a phase conj(b)/|b| on q, so its rotation is diag(1, conj(b)/|b|) times the real
  one, and a round is A <- J^H A J (the diagonal's imaginary parts are not read, as LAPACK);
* sweeps repeat while the off-diagonal mass (summed by itself) exceeds (m eps)^2 of the
  matrix's, at most 40, and one more follows (quadratic convergence: it squares the m eps
  left, which at 256 rows was a residual |A v - v w| of 90 eps; `Tournament.sweeps`);
* the accumulated rotations V, orthonormal only to about m eps, are made orthonormal by one
  Newton-Schulz step, and the eigenvalues are their Rayleigh quotients v^H A v against the
  matrix itself (as accurate as LAPACK's, where the rotated diagonal is about m eps |A| off);
  a sort orders them and a permutation matrix the vectors. Batch dimensions ride along in
  every op.
"""
from __future__ import annotations

import numpy as np
from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import (Num, any_over, complex_, conj, float_info, hypot, imag,
    is_complex, real, real_element, select, sqrt, sum_over)
from ..registry import register_custom_call
from .ffi_calls import lapack_chars, broadcast_scalar, positions, scalar_constant

MAX_SWEEPS = 40


def matmul(a: Num, b: Num, batch: int, transpose_b: bool = False) -> Num:
    """a @ b (or a @ b^T) over the last two dimensions, the first `batch` dimensions batched."""
    contract_b = batch + (1 if transpose_b else 0)
    dims = list(range(batch))
    return Num(stablehlo.dot_general(
        a.value, b.value, lhs_batching_dimensions=dims, rhs_batching_dimensions=dims,
        lhs_contracting_dimensions=[batch + 1], rhs_contracting_dimensions=[contract_b]))


def broadcast(x: Num, t: ir.RankedTensorType, dims: list[int]) -> Num:
    return Num(stablehlo.broadcast_in_dim(x.value, broadcast_dimensions=dims, result_type=t))


def _transpose(x: Num, batch: int) -> Num:
    """[..., m, n] -> [..., n, m]."""
    return Num(stablehlo.transpose(x.value, permutation=list(range(batch)) + [batch + 1, batch]))


def polar(z: Num) -> tuple[Num, Num]:
    """(|z|, z / |z|) of a complex z, from real operations (so that the phase has modulus 1 to
    rounding; the phase IREE's complex division gives is off for tiny |z|, which sweeps of
    such rotations accumulate: docs/iree_gaps.md#passescustom_callslapacksyevd); the phase
    is 1 where z is 0."""
    size = hypot(abs(real(z)), abs(imag(z)))
    zero = size.eq(0)
    safe = select(zero, size.like(1), size)
    return size, complex_(select(zero, size.like(1), real(z) / safe),
                          select(zero, size.like(0), imag(z) / safe))


def adjoint(x: Num, batch: int) -> Num:
    """The conjugate transpose (the transpose of a real matrix)."""
    return conj(_transpose(x, batch))


def leading_block(x: Num, rows: int, columns: int) -> Num:
    """The leading rows x columns block of each [..., m, n] matrix."""
    shape = list(x.type.shape)
    return Num(stablehlo.slice(x.value, start_indices=[0] * len(shape),
                               limit_indices=shape[:-2] + [rows, columns]))


def diagonal_of(x: Num, batch: int) -> Num:
    """[..., m, m] -> [..., m]."""
    rows, columns = positions(x)
    on = select(rows.eq(columns), x, x.like(0))
    return sum_over(on, [batch + 1])


def identity_matrix(batch_shape: list[int], n: int, element: ir.Type) -> Num:
    t = ir.RankedTensorType.get(batch_shape + [n, n], element)
    rows, columns = positions(Num(stablehlo.constant(0, result_type=t)))
    return select(rows.eq(columns), broadcast_scalar(Num(scalar_constant(1, element)), t),
                  broadcast_scalar(Num(scalar_constant(0, element)), t))


def orthonormalized(V: Num, batch: int) -> Num:
    """V (3 I - V^H V) / 2: one Newton-Schulz step towards the orthonormal (unitary) factor
    of V's polar decomposition. A Jacobi V accumulated over many sweeps is orthonormal only
    to about m eps; the step leaves it at rounding level (docs/iree_gaps.md, JAX's LAPACK calls)."""
    identity = identity_matrix(list(V.type.shape[:-2]), V.type.shape[-1], V.element)
    return matmul(V, (identity * 3 - matmul(adjoint(V, batch), V, batch)) / 2, batch)


def sort_columns(values: Num, batch: int, direction: str, *matrices: Num):
    """`values` [..., n] sorted (stably) by `direction` ("LT" ascending, "GT" descending), and
    each [..., k, n] matrix with its columns in the same order (through a permutation matrix)."""
    i32 = ir.IntegerType.get_signless(32)
    shape = list(values.type.shape)
    order = stablehlo.iota(iota_dimension=batch,
                           result_type=ir.RankedTensorType.get(shape, i32))
    ordered, order = stablehlo.sort(
        [values.value, order], dimension=batch, is_stable=True,
        comparator=lambda x, y, i, j: stablehlo.compare(x, y, comparison_direction=direction))
    square = ir.RankedTensorType.get(shape + [shape[-1]], i32)
    old = Num(stablehlo.iota(iota_dimension=batch, result_type=square))     # [.., old, new]
    new = broadcast(Num(order), square, list(range(batch)) + [batch + 1])

    def permutation(element: ir.Type) -> Num:
        t = ir.RankedTensorType.get(shape + [shape[-1]], element)
        return select(old.eq(new), broadcast_scalar(Num(scalar_constant(1, element)), t),
                      broadcast_scalar(Num(scalar_constant(0, element)), t))
    return Num(ordered), [matmul(x, permutation(x.element), batch) for x in matrices]


def _reshaped(x: Num, shape: list[int]) -> Num:
    return Num(stablehlo.reshape(x.value, result_type=ir.RankedTensorType.get(shape, x.element)))


def swapped(x: Num, axis: int) -> Num:
    """x with the entries 2i and 2i + 1 along `axis` exchanged (each index's partner)."""
    shape = list(x.type.shape)
    split = shape[:axis] + [shape[axis] // 2, 2] + shape[axis + 1:]
    return _reshaped(Num(stablehlo.reverse(_reshaped(x, split).value, dimensions=[axis + 1])),
                     shape)


def _broadcast_along(v: Num, like: Num, axis: int) -> Num:
    """v [..., m] (batch dimensions first) broadcast to `like`'s shape, its m along `axis`."""
    t = ir.RankedTensorType.get(list(like.type.shape), v.element)
    return broadcast(v, t, list(range(v.type.rank - 1)) + [axis])


class Rotation:
    """A round's m/2 rotations, per index r of pair (p, q) = (2i, 2i + 1): J restricted to the
    pair is [[c, s], [-sq, cq]]; `first` is true at p."""

    def __init__(self, first: Num, c: Num, s: Num, cq: Num, sq: Num):
        self.first, self.c, self.s, self.cq, self.sq = first, c, s, cq, sq

    def columns(self, X: Num) -> Num:
        """X J: column p becomes c x_p - sq x_q, column q s x_p + cq x_q."""
        return self._paired(X, X.type.rank - 1, select(self.first, self.c, self.cq),
                            select(self.first, -self.sq, self.s))

    def rows(self, X: Num) -> Num:
        """J^H X: row p becomes c x_p - conj(sq) x_q, row q s x_p + conj(cq) x_q."""
        return self._paired(X, X.type.rank - 2, select(self.first, self.c, conj(self.cq)),
                            select(self.first, -conj(self.sq), self.s))

    @staticmethod
    def _paired(X: Num, axis: int, own: Num, partner: Num) -> Num:
        """Each index along `axis` times `own`, plus its partner times `partner`."""
        return (X * _broadcast_along(own, X, axis)
                + swapped(X, axis) * _broadcast_along(partner, X, axis))


class Tournament:
    """The static schedule of the parallel cyclic Jacobi method on m (even) indices (Brent and
    Luk's circle method), held in a layout where every round pairs neighbours (2i, 2i + 1):
    after a round's rotations every index but the first moves one seat on along the circle
    1 -> 2 -> 4 -> ... -> m-2 -> m-1 -> m-3 -> ... -> 3 -> 1, so the m - 1 rounds of a sweep
    pair every two indices once and end in the order they began. A round is elementwise ops
    on pairs of rows and columns and a fixed permutation: O(m^2), not a matmul's O(m^3)."""

    def __init__(self, m: int, element: ir.Type):
        self.m, self.element = m, element

    def seat_sources(self) -> np.ndarray:
        """For each position, the position whose index moves there in a round."""
        h, sources = self.m // 2, np.arange(self.m)
        if h > 1:
            sources[2] = 1                               # 1 -> 2
            sources[4::2] = np.arange(2, 2 * h - 2, 2)   # 2i - 2 -> 2i
            sources[1:2 * h - 2:2] = np.arange(3, 2 * h, 2)   # 2i + 3 -> 2i + 1
            sources[2 * h - 1] = 2 * h - 2               # m-2 -> m-1
        return sources

    def next_round(self, x: Num, axis: int) -> Num:
        """x with its indices along `axis` moved one seat on (a gather of constant indices)."""
        if self.m == 2:
            return x
        shape = list(x.type.shape)
        i32 = ir.IntegerType.get_signless(32)
        sources = stablehlo.constant(self.seat_sources().astype(np.int32).reshape(self.m, 1),
                                     result_type=ir.RankedTensorType.get([self.m, 1], i32))
        slice_sizes = list(shape)
        slice_sizes[axis] = 1
        return Num(stablehlo.gather(
            x.value, sources, offset_dims=[d for d in range(len(shape)) if d != axis],
            collapsed_slice_dims=[axis], start_index_map=[axis], index_vector_dim=1,
            slice_sizes=slice_sizes, indices_are_sorted=False,
            result_type=ir.RankedTensorType.get(shape, x.element)))

    def sweeps(self, A: Num, V: Num, step, unconverged) -> tuple[Num, Num]:
        """Sweeps of the m - 1 rounds, `step(A, V) -> (A, V)`, while `unconverged(A)` (a
        boolean scalar) held before the last one and fewer than MAX_SWEEPS have run: one
        sweep more after the test passes, which squares what was left (quadratic
        convergence). The test runs in the body and the condition reads its flag
        (docs/iree_gaps.md, JAX's LAPACK calls)."""
        i32 = ir.IntegerType.get_signless(32)

        def sweep_cond(sweep, A, V, more):
            below = Num(stablehlo.compare(sweep, scalar_constant(MAX_SWEEPS, i32),
                                          comparison_direction="LT"))
            return (below & Num(more)).value

        def sweep_body(sweep, A, V, more):
            more = unconverged(Num(A)).value

            def step_cond(k, *_):
                return stablehlo.compare(k, scalar_constant(self.m - 1, i32), comparison_direction="LT")

            def step_body(k, A, V):
                A, V = step(Num(A), Num(V))
                return [(Num(k) + 1).value, A.value, V.value]

            _, A, V = extras.while_([scalar_constant(0, i32), A, V], step_cond, step_body)
            return [(Num(sweep) + 1).value, A, V, more]

        zero = scalar_constant(0, i32)
        first = Num(zero).eq(0).value                           # a first sweep in any case
        _, A, V, _ = extras.while_([zero, A.value, V.value, first], sweep_cond, sweep_body)
        return Num(A), Num(V)

    def rotation(self, diagonal: Num, partner: Num) -> Rotation:
        """The rotations that zero G's (p, q) entries, from G's diagonal [..., m] and each
        index's entry G[r, partner] [..., m] of the symmetric (Hermitian) G (Golub and Van
        Loan's sym.schur2). Both indices of a pair compute it from the same numbers: p's."""
        i32 = ir.IntegerType.get_signless(32)
        shape = list(diagonal.type.shape)
        last = len(shape) - 1
        index = Num(stablehlo.iota(iota_dimension=last,
                                    result_type=ir.RankedTensorType.get(shape, i32)))
        first = (index % 2).eq(0)
        gpp = select(first, diagonal, swapped(diagonal, last))
        gqq = select(first, swapped(diagonal, last), diagonal)
        gpq = select(first, partner, swapped(partner, last))
        hermitian = is_complex(self.element)
        if hermitian:
            # a Hermitian pair [[a, b], [conj b, d]] is the real one [[a, |b|], [|b|, d]] after
            # the phase conj(b) / |b| on q: J = diag(1, conj(phase)) R, phase = b / |b|
            gpp, gqq = real(gpp), real(gqq)
            magnitude, phase = polar(gpq)
        else:
            magnitude = gpq
        zero = magnitude.eq(0)
        tau = (gqq - gpp) / select(zero, magnitude.like(1), magnitude * 2)
        sign = select(tau >= 0, tau.like(1), tau.like(-1))
        t = sign / (abs(tau) + sqrt(tau * tau + 1))
        t = select(zero, t.like(0), t)
        c = 1 / sqrt(t * t + 1)
        s = t * c
        if not hermitian:
            return Rotation(first, c, s, c, s)
        c, s = complex_(c, c.like(0)), complex_(s, s.like(0))
        return Rotation(first, c, s, c * conj(phase), s * conj(phase))


def syevd(op: ir.Operation, a: ir.Value):
    a = Num(a)
    lower = lapack_chars(op).get("uplo", "L") == "L"
    shape = list(a.type.shape)
    batch, n = len(shape) - 2, shape[-1]
    element = a.element
    rows, columns = positions(a)
    hermitian = is_complex(element)
    if hermitian:               # the diagonal of a Hermitian matrix is real: its imag is not read
        a = select(rows.eq(columns), complex_(real(a), real(a).like(0)), a)
    kept = select(rows >= columns if lower else rows <= columns, a, a.like(0))
    strict = select(rows > columns if lower else rows < columns, a, a.like(0))
    sym = kept + adjoint(strict, batch)
    m = n + n % 2
    if m != n:
        sym = Num(stablehlo.pad(sym.value, scalar_constant(0, element), edge_padding_low=[0] * len(shape),
                                edge_padding_high=[0] * batch + [1, 1],
                                interior_padding=[0] * len(shape)))
    matrix = ir.RankedTensorType.get(shape[:-2] + [m, m], element)
    rows_m, cols_m = positions(Num(stablehlo.constant(0, result_type=matrix)))
    identity = identity_matrix(shape[:-2], m, element)
    eps = float_info(real_element(element)).eps

    tournament = Tournament(m, element)

    def step(A, V):
        """One round: m/2 simultaneous rotations, then every index one seat on."""
        J = tournament.rotation(diagonal_of(A, batch), diagonal_of(swapped(A, batch + 1), batch))
        A = J.columns(J.rows(A))
        A = tournament.next_round(tournament.next_round(A, batch), batch + 1)
        return A, tournament.next_round(J.columns(V), batch + 1)

    def off_and_norm(A):
        squares = real(A * conj(A)) if hermitian else A * A
        dims = list(range(batch, batch + 2))
        total = sum_over(squares, dims)
        # the off-diagonal mass summed by itself: as total - diagonal it is rounding noise
        # of the order of eps * total near convergence, which never fell below eps^2 * total
        # for a batch of 20x20 complex64 matrices: every run took all MAX_SWEEPS
        off = sum_over(select(rows_m.eq(cols_m), squares.like(0), squares), dims)
        return off, total

    def unconverged(A) -> Num:
        off, total = off_and_norm(A)
        worse = off > total * (m * eps) ** 2       # |off-diagonal| <= m eps |A|: converged
        if batch:
            worse = any_over(worse, range(batch))
        return worse

    _, V = tournament.sweeps(sym, identity, step, unconverged)
    # the Rayleigh quotients of the orthonormalized vectors against the matrix itself: the
    # rotated diagonal is off by rounding accumulated over every step (about m eps |A|)
    V = orthonormalized(V, batch)
    w = real(sum_over(conj(V) * matmul(sym, V, batch), [batch]))              # [..., m]
    if m != n:
        w = Num(stablehlo.slice(w.value, start_indices=[0] * (batch + 1),
                                limit_indices=shape[:-2] + [n]))
        V = leading_block(V, n, n)
    w_sorted, (vectors,) = sort_columns(w, batch, "LT", V)         # ascending eigenvalues
    info_type = ir.RankedTensorType(op.results[2].type)
    info = stablehlo.constant(0, result_type=info_type)
    return [vectors.value, w_sorted.value, info]


for _name in ("ssyevd", "dsyevd", "cheevd", "zheevd"):
    register_custom_call(f"lapack_{_name}_ffi", syevd, static_shapes_only=True)
