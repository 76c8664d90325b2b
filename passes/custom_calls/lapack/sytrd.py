"""The decomposition of `lapack_?sytrd_ffi` / `lapack_?hetrd_ffi` (? = s, d / c, z):
`jax.lax.linalg.tridiagonal` on the CPU.

sytrd(a; uplo) -> (a', d, e, tau, info): Q^H A Q = T, T real symmetric tridiagonal (diagonal
d, off-diagonal e), for the symmetric (Hermitian) matrix whose uplo triangle a holds, as
LAPACK's xsytd2/xhetd2. For uplo 'L', column by column in a `stablehlo.while`: the reflector
H(i) = I - tau v v^H of xlarfg annihilates a[i+2:, i] (v[i+1] = 1; e[i] = beta, or alpha when
nothing is reflected), then with x = tau A v and w = x - tau/2 (x^H v) v the trailing block
takes the rank-2 update A := A - v w^H - w v^H. The update runs on the whole Hermitian
matrix (built from the uplo triangle, its diagonal taken as real), so each step is masks and
reductions over whole (batches of) matrices. a' holds d on the diagonal, e beside it, the
reflectors beyond, and the input's other triangle untouched, as LAPACK leaves it; info is 0.
uplo 'U' is the same reduction of the matrix reversed along both axes (its upper triangle
becomes the lower one and the order of the steps is LAPACK's, from the last column back),
with the results reversed back. householder_product (orgqr/ungqr) builds Q from them.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import Num, complex_, conj, is_complex, real, select, sum_over
from ..registry import register_custom_call
from .ffi_calls import lapack_chars, selected_column, broadcast_scalar, positions, scalar_constant, spread, reflector
from .geev import fenced
from .gehrd import transposed
from .syevd import diagonal_of


def _reversed(x: Num, dimensions: list[int]) -> Num:
    return Num(stablehlo.reverse(x.value, dimensions=dimensions))


def _hermitian_from_lower(a: Num) -> Num:
    """The Hermitian (symmetric) matrix of a's lower triangle, its diagonal taken as real."""
    rows, columns = positions(a)
    diagonal = real(a)
    if is_complex(a.element):
        diagonal = complex_(diagonal, 0.0)
    return select(rows > columns, a, select(rows.eq(columns), diagonal, conj(transposed(a))))


def tridiagonal_lower(a: Num, tau_type: ir.RankedTensorType) -> tuple[Num, Num, Num, Num]:
    """xsytd2/xhetd2 with uplo 'L' on (batches of) matrices: (a', d, e, taus)."""
    rank, n = a.type.rank, a.type.shape[-1]
    batch = rank - 2
    rows, columns = positions(a)
    i32 = ir.IntegerType.get_signless(32)
    slots = Num(stablehlo.iota(iota_dimension=batch, result_type=ir.RankedTensorType.get(
        tau_type.shape, i32)))
    real_type = ir.RankedTensorType.get(tau_type.shape, real(a).element)

    def cond(i, *_):
        return stablehlo.compare(i, scalar_constant(n - 1, i32), comparison_direction="LT")

    def body(i, h, taus, offdiagonal):
        i, h, taus, offdiagonal = Num(i), Num(h), Num(taus), Num(offdiagonal)
        ii = broadcast_scalar(i, rows.type)
        p = ii + 1                                            # the row where v is 1
        in_column = columns.eq(ii)
        column = selected_column(h, in_column, rank)
        alpha = spread(sum_over(select(rows.eq(p), column, h.like(0)), [batch]), h, batch)
        below = rows > p
        norm2 = real(spread(sum_over(select(below, column * conj(column), h.like(0)), [batch]),
                             h, batch))                                           # |x|^2
        reflect, beta, tau, scale = reflector(alpha, norm2, h)
        v = select(rows.eq(p), h.like(1), select(below, column * scale, h.like(0)))  # v[row]
        trailing = (rows > ii) & (columns > ii)
        # x = tau A v and w = x - tau/2 (x^H v) v, both laid along the rows
        x = tau * spread(sum_over(select(trailing, h, h.like(0)) * transposed(v),
                                   [batch + 1]), h, batch + 1)
        w = x - tau * 0.5 * spread(sum_over(conj(x) * v, [batch]), h, batch) * v
        update = v * conj(transposed(w)) + w * conj(transposed(v))
        h = select(trailing, h - update, h)
        # the reflector below the subdiagonal of column i
        h = select(in_column & below, v, h)
        e_i = real(sum_over(sum_over(select(in_column & rows.eq(p), select(reflect, beta, alpha),
                                            h.like(0)), [batch + 1]), [batch]))
        tau_i = sum_over(sum_over(select(in_column & rows.eq(p), tau, h.like(0)), [batch + 1]),
                         [batch])
        at_i = slots.eq(broadcast_scalar(i, slots.type))
        taus = select(at_i, spread(tau_i, taus, batch), taus)
        offdiagonal = select(at_i, spread(e_i, offdiagonal, batch), offdiagonal)
        return [(i + 1).value, h.value, taus.value, offdiagonal.value]

    start = [scalar_constant(0, i32), _hermitian_from_lower(a).value,
             broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type).value,
             broadcast_scalar(Num(scalar_constant(0, real_type.element_type)), real_type).value]
    _, h, taus, e = fenced(extras.while_(start, cond, body))
    d = real(diagonal_of(h, batch))
    on_diagonal = complex_(d, 0.0) if is_complex(a.element) else d
    e_padded = Num(stablehlo.pad(e.value, scalar_constant(0, e.element), edge_padding_low=[0] * (rank - 1),
                                 edge_padding_high=[0] * batch + [1],
                                 interior_padding=[0] * (rank - 1)))               # [..., n]
    e_column = spread(e_padded, h, batch)                                 # e[c] at (r, c)
    e_entry = complex_(e_column, 0.0) if is_complex(a.element) else e_column
    out = select(rows > columns + 1, h,
                 select(rows.eq(columns + 1), e_entry,
                        select(rows.eq(columns), spread(on_diagonal, h, batch), a)))
    return out, d, e, taus


def sytrd(op: ir.Operation, a: ir.Value):
    a = Num(a)
    rank = a.type.rank
    n = a.type.shape[-1]
    lower = lapack_chars(op).get("uplo", "L") == "L"
    _, d_type, e_type, tau_type, info_type = (ir.RankedTensorType(r.type) for r in op.results)
    info = broadcast_scalar(Num(scalar_constant(0, info_type.element_type)), info_type)
    if n == 0:
        return [a.value, broadcast_scalar(Num(scalar_constant(0, d_type.element_type)), d_type).value,
                broadcast_scalar(Num(scalar_constant(0, e_type.element_type)), e_type).value,
                broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type).value, info.value]
    if n == 1:                 # no step (and no loop: IREE's runtime fails on complex
        d = real(diagonal_of(a, rank - 2))             # 1x1s with one, as in lapack_geev)
        out = complex_(real(a), 0.0) if is_complex(a.element) else a
        return [out.value, d.value, broadcast_scalar(Num(scalar_constant(0, e_type.element_type)), e_type).value,
                broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type).value, info.value]
    if lower:
        out, d, e, taus = tridiagonal_lower(a, tau_type)
    else:
        out, d, e, taus = tridiagonal_lower(_reversed(a, [rank - 2, rank - 1]), tau_type)
        out = _reversed(out, [rank - 2, rank - 1])
        d, e, taus = (_reversed(x, [rank - 2]) for x in (d, e, taus))
    return [out.value, d.value, e.value, taus.value, info.value]


for _name in ("ssytrd", "dsytrd", "chetrd", "zhetrd"):
    register_custom_call(f"lapack_{_name}_ffi", sytrd, static_shapes_only=True,
                         cpu_flags=("--iree-dispatch-creation-enable-aggressive-fusion=false",))
