"""The decomposition of `lapack_?syevd_ffi` (? = s, d) and `lapack_?heevd_ffi` (? = c, z):
`jnp.linalg.eigh` / `eigvalsh` on the CPU.

syevd(a) -> (vectors, w, info): the eigenvalues of the symmetric (Hermitian) matrix in a's
uplo triangle, ascending and real, and orthonormal (unitary) eigenvectors as columns (info 0).
LAPACK reduces to tridiagonal form; this decomposition is the parallel cyclic Jacobi method
(Brent-Luk), which is as accurate and maps onto whole-matrix ops:

* the matrix is made symmetric from its uplo triangle, and padded to an even size m with a
  zero row and column (an index that no rotation ever couples, dropped at the end);
* a sweep is m - 1 steps of a round-robin tournament (a static schedule): each step pairs
  every index with another, and applies all m/2 rotations at once, A <- J^T A J, V <- V J,
  each rotation zeroing its a[p, q] (Golub & Van Loan's sym.schur2: t = sign(tau) /
  (|tau| + sqrt(1 + tau^2)), tau = (a_qq - a_pp) / (2 a_pq), c = 1 / sqrt(1 + t^2),
  s = t c). J is built from the step's one-hot pairing matrices, so a step is a few batched
  matmuls. A Hermitian pair [[a, b], [conj b, d]] is the real [[a, |b|], [|b|, d]] after a
  phase conj(b)/|b| on q, so its rotation is diag(1, conj(b)/|b|) times the real one, and a
  step is A <- J^H A J (the diagonal's imaginary parts are not read, as LAPACK);
* sweeps repeat while the off-diagonal mass (summed by itself) exceeds (m eps)^2 of the
  matrix's (quadratic convergence: a handful of sweeps), at most 40;
* the accumulated rotations V, orthonormal only to about m eps, are made orthonormal by one
  Newton-Schulz step, and the eigenvalues are their Rayleigh quotients v^H A v against the
  matrix itself (as accurate as LAPACK's, where the rotated diagonal is about m eps |A| off);
  a sort orders them and a permutation matrix the vectors. Batch dimensions ride along in
  every op.
"""
from __future__ import annotations

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


def _diag_sum(onehot_rows: Num, product: Num, batch: int) -> Num:
    """sum_r onehot[r, i] * product[r, i]: [..., m, h] -> [..., h]."""
    return sum_over(onehot_rows * product, [batch])


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


class Tournament:
    """The static schedule of the parallel cyclic Jacobi method on m (even) indices: step k of
    the circle method pairs index m-1 with k, and (k+i, k-i) mod (m-1) for i = 1 .. m/2-1."""

    def __init__(self, m: int, element: ir.Type):
        self.m, self.h, self.element = m, m // 2, element
        i32 = ir.IntegerType.get_signless(32)
        self.slot_type = ir.RankedTensorType.get([m, self.h], i32)
        self.row_ids = Num(stablehlo.iota(iota_dimension=0, result_type=self.slot_type))
        self.slots = Num(stablehlo.iota(iota_dimension=1, result_type=self.slot_type))

    def pairing(self, k: Num) -> tuple[Num, Num]:
        """One-hot [m, m/2] matrices: column i selects the p and the q of pair i at step k."""
        m, slots, i32 = self.m, self.slots, ir.IntegerType.get_signless(32)
        k = broadcast_scalar(k, self.slot_type)
        size = max(m - 1, 1)
        ring = broadcast_scalar(Num(scalar_constant(size, i32)), self.slot_type)
        p = select(slots.eq(0), k, Num(stablehlo.remainder((k + slots).value, ring.value)))
        q = select(slots.eq(0), k.like(m - 1),
                   Num(stablehlo.remainder((k - slots + size).value, ring.value)))
        pair_2d = ir.RankedTensorType.get([m, self.h], self.element)
        one = broadcast_scalar(Num(scalar_constant(1, self.element)), pair_2d)
        zero = broadcast_scalar(Num(scalar_constant(0, self.element)), pair_2d)
        return select(self.row_ids.eq(p), one, zero), select(self.row_ids.eq(q), one, zero)

    def sweeps(self, A: Num, V: Num, step, unconverged) -> tuple[Num, Num]:
        """Sweeps of the m - 1 steps, `step(k, A, V) -> (A, V)`, while `unconverged(A)` (a
        boolean scalar) and fewer than MAX_SWEEPS have run."""
        i32 = ir.IntegerType.get_signless(32)

        def sweep_cond(sweep, A, V):
            more = Num(stablehlo.compare(sweep, scalar_constant(MAX_SWEEPS, i32),
                                         comparison_direction="LT"))
            return (more & unconverged(Num(A))).value

        def sweep_body(sweep, A, V):
            def step_cond(k, *_):
                return stablehlo.compare(k, scalar_constant(self.m - 1, i32), comparison_direction="LT")

            def step_body(k, A, V):
                A, V = step(Num(k), Num(A), Num(V))
                return [(Num(k) + 1).value, A.value, V.value]

            _, A, V = extras.while_([scalar_constant(0, i32), A, V], step_cond, step_body)
            return [(Num(sweep) + 1).value, A, V]

        _, A, V = extras.while_([scalar_constant(0, i32), A.value, V.value], sweep_cond, sweep_body)
        return Num(A), Num(V)

    def rotation(self, k: Num, G: Num, batch: int) -> Num:
        """J [..., m, m]: the m/2 rotations of step k that zero G's (p, q) entries of its pairs
        (Golub & Van Loan's sym.schur2 on the symmetric G)."""
        pair_type = ir.RankedTensorType.get(list(G.type.shape[:-2]) + [self.m, self.h],
                                            self.element)
        p2, q2 = self.pairing(k)
        P = broadcast(p2, pair_type, [batch, batch + 1])
        Q = broadcast(q2, pair_type, [batch, batch + 1])
        GP, GQ = matmul(G, P, batch), matmul(G, Q, batch)
        gpp, gqq, gpq = _diag_sum(P, GP, batch), _diag_sum(Q, GQ, batch), _diag_sum(P, GQ, batch)
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
        cq, sq = c, s                                   # J[q, q] and -J[q, p]
        if hermitian:
            c, s = complex_(c, c.like(0)), complex_(s, s.like(0))
            cq, sq = c * conj(phase), s * conj(phase)
        cs = lambda x: broadcast(x, pair_type, list(range(batch)) + [batch + 1])
        return (matmul(P * cs(c), P, batch, True) + matmul(Q * cs(cq), Q, batch, True)
                + matmul(P * cs(s), Q, batch, True) - matmul(Q * cs(sq), P, batch, True))


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

    def step(k, A, V):
        """One round of m/2 simultaneous rotations."""
        J = tournament.rotation(k, A, batch)
        return matmul(matmul(adjoint(J, batch), A, batch), J, batch), matmul(V, J, batch)

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
