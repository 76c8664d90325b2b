"""The decomposition of `lapack_?geev_ffi` (`jnp.linalg.eig`, `eigvals`) on the CPU, and the
complex Schur form (shlo.passes.custom_calls.lapack.schur_qr) that it and the complex gees share.

geev goes through the complex Schur form A = Z T Z^H, as LAPACK's zgeev does; a real input
takes dgeev's real Schur form (shlo.passes.custom_calls.lapack.gees) made complex block by block
(`triangularized`, scipy's rsf2csf), so its eigenvalues come in LAPACK's order with real ones
exactly real, and steps 3 below follow. For a complex input:

1. Hessenberg form: xgehd2's reflectors (shlo.passes.custom_calls.lapack.gehrd) and Q from them
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
IREE's runtime fails at the call for some inputs (docs/iree_gaps.md#passescustom_callslapackgeev).
A 2x2 matrix is Hessenberg already and skips the reduction (with it, the same failure met
every 2x2).

LAPACK's order of eigenvalues is its deflation order, which this follows where the QR
iteration deflates alike: for real inputs jax's (LAPACK's) eigenvalues matched elementwise
on every random matrix tried; eigenvectors are complex columns as geev returns them.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import (Num, complex_, conj, float_info, imag, is_complex, max_over,
    maximum, min_over, real, real_element, select, sqrt, sum_over)
from ..registry import register_custom_call
from .ffi_calls import lapack_chars, broadcast_scalar, scalar_constant
from .gees import real_schur, triangularized
from .syevd import adjoint, diagonal_of, matmul, polar
from .schur_qr import cabs1, fenced, Matrices, complex_schur


def _right_eigenvectors(t: Num) -> Num:
    """The columns x_k with T x_k = T[k, k] x_k, x_k[k] = 1 and zeros below k, for upper
    triangular T (ztrevc's back substitution, rows from the bottom up)."""
    shape = list(t.type.shape)
    n, batch = shape[-1], t.type.rank - 2
    at = Matrices(t)
    i32 = ir.IntegerType.get_signless(32)
    diagonal = diagonal_of(t, batch)
    eps = float_info(real_element(t.element)).eps
    tiny = float_info(real_element(t.element)).tiny
    smin = maximum(cabs1(diagonal) * eps, real(diagonal).like(tiny))          # per column k
    identity = select(at.rows.eq(at.columns), t.like(1), t.like(0))

    def cond(i, _):
        return stablehlo.compare(i, scalar_constant(0, i32), comparison_direction="GE")

    def body(i, x):
        i, x = Num(i), Num(x)
        row = at.row(t, i)                                        # T[i, j] along j
        products = sum_over(at.along_rows(row, x) * x, [batch])  # sum_j T[i, j] x[j, k]
        denominator = at.per_matrix(at.entry(t, i, i), diagonal) - diagonal
        small = cabs1(denominator) < smin
        denominator = select(small, complex_(smin, 0.0), denominator)
        value = -products / denominator
        later = at.columns > at.full(i)
        x = select(at.rows.eq(at.full(i)) & later, at.along_columns(value, x), x)
        return [(i - 1).value, x.value]

    _, x = fenced(extras.while_([scalar_constant(n - 2, i32), identity.value], cond, body))
    return x


def _reversed(x: Num) -> Num:
    rank = x.type.rank
    return Num(stablehlo.reverse(x.value, dimensions=[rank - 2, rank - 1]))


def _normalized(v: Num) -> Num:
    """Each column scaled to unit 2-norm, then turned so that its largest component (the
    first of the largest) is real and positive, as xgeev leaves them."""
    batch = v.type.rank - 2
    at = Matrices(v)
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
    chars = lapack_chars(op)
    a = Num(a)
    vector_type = ir.RankedTensorType(op.results[-2].type)
    complex_element = vector_type.element_type
    if is_complex(a.element):
        t, z, converged = complex_schur(a)
    else:                 # as dgeev: the real Schur form (LAPACK's order, real values exact)
        t, z, converged = real_schur(a)
        t, z = triangularized(t, z)
    batch = a.type.rank - 2
    w = diagonal_of(t, batch)
    outputs = [real(w).value, imag(w).value] if len(op.results) == 5 else [w.value]
    for side in ("compute_left", "compute_right"):
        if chars.get(side, "N") != "V":
            outputs.append(broadcast_scalar(Num(scalar_constant(0, complex_element)), vector_type).value)
            continue
        if a.type.shape[-1] < 2:         # (IREE miscompiles the 1x1 left product)
            outputs.append(broadcast_scalar(Num(scalar_constant(1, complex_element)), vector_type).value)
            continue
        if side == "compute_right":
            vectors = _right_eigenvectors(t)
        else:
            vectors = _reversed(_right_eigenvectors(_reversed(adjoint(t, batch))))
        outputs.append(_normalized(matmul(z, vectors, batch)).value)
    info_type = ir.RankedTensorType(op.results[-1].type)
    outputs.append(select(converged, broadcast_scalar(Num(scalar_constant(0, info_type.element_type)), info_type),
                          broadcast_scalar(Num(scalar_constant(1, info_type.element_type)), info_type)).value)
    return outputs


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}geev_ffi", geev, static_shapes_only=True)
