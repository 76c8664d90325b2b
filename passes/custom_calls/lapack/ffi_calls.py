"""Decompositions of the LAPACK custom calls that JAX emits for the CPU, registered with
shlo-expand-custom-calls, so that jax.numpy.linalg programs lowered for the CPU compile.

JAX lowers `jnp.linalg.cholesky` to `lapack_?potrf_ffi` and `jax.scipy.linalg.
solve_triangular` to `lapack_?trsm_ffi` (? = s, d, c, z), with the LAPACK character arguments
as ui8 attributes in `mhlo.backend_config` (uplo 'L'/'U', side 'L'/'R', trans_x 'N'/'T'/'C',
diag 'N'/'U'). Their logical semantics are StableHLO's own ops:

* potrf(a) -> (factor, info): `stablehlo.cholesky` of the uplo triangle (the other triangle
  is left as the input's, as LAPACK leaves it), info 0 when every diagonal entry of the
  factor is positive and finite, else 1 (JAX turns a non-zero info into NaNs);
* trsm(a, b) -> x: `stablehlo.triangular_solve` with left_side, lower, unit_diagonal and
  transpose_a from side, uplo, diag and trans_x.

* getrf(a) -> (lu, ipiv, info) (`jnp.linalg.solve`, `inv`, `det`, `jax.scipy.linalg.lu`):
  LU with partial pivoting as LAPACK does it, column by column in a `stablehlo.while`: the
  pivot is the first largest |a[i, j]| at or below the diagonal, its row swaps with row j
  (ipiv[j] = its 1-based row), the column below the diagonal is divided by the pivot and the
  trailing block takes the rank-one update; a zero pivot leaves its column unscaled and sets
  info to its 1-based position (the first one), as LAPACK. Each step works on whole matrices
  with masks (O(n^2) a step, batch dimensions side by side).

* geqrf(a) -> (a', tau) and orgqr/ungqr(a', tau) -> q (`jnp.linalg.qr`): Householder QR
  as LAPACK's xgeqr2/xorg2r/xung2r, column by column in a `stablehlo.while`: the reflector
  H = I - tau v v^H of column j has beta = -sign(re alpha) |x| (real), tau = (beta - alpha)
  / beta and v = x / (alpha - beta) below the diagonal (tau = 0 when the column is already
  zero below it and alpha is real), and H^H is applied to the trailing columns; orgqr/ungqr
  applies the reflectors to the identity's columns from the last one back. (LAPACK's
  rescaling of tiny norms is left out.)

syevd/heevd (eigh) is decomposed in shlo.passes.custom_calls.lapack.syevd, gesdd (svd) in
shlo.passes.custom_calls.lapack.gesdd, gtsv (tridiagonal_solve) in shlo.passes.custom_calls.lapack.gtsv, gehrd
(hessenberg) in shlo.passes.custom_calls.lapack.gehrd, geev (eig) in shlo.passes.custom_calls.lapack.geev, gees
(schur, real and complex) in shlo.passes.custom_calls.lapack.gees, sytrd/hetrd (tridiagonal) in
shlo.passes.custom_calls.lapack.sytrd, geqp3 (pivoted QR) in shlo.passes.custom_calls.lapack.geqp3. Other LAPACK
targets stay a clear error that names them.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import (Num, any_over, complex_, conj, element_of, imag, is_complex,
    is_finite, max_over, min_over, real, select, sqrt, sum_over, with_element)
from ..registry import register_custom_call

_PREFIXES = "sdcz"


def lapack_chars(op: ir.Operation) -> dict[str, str]:
    """The LAPACK character arguments of a call, from its mhlo.backend_config."""
    if "mhlo.backend_config" not in op.attributes:
        return {}
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    return {config[i].name: chr(ir.IntegerAttr(config[i].attr).value)
            for i in range(len(config))}


def positions(x: Num) -> tuple[Num, Num]:
    """Row and column index of every element of a (batch of) matrices."""
    i32 = ir.RankedTensorType.get(x.type.shape, ir.IntegerType.get_signless(32))
    rank = x.type.rank
    return (Num(stablehlo.iota(iota_dimension=rank - 2, result_type=i32)),
            Num(stablehlo.iota(iota_dimension=rank - 1, result_type=i32)))


def scalar_constant(value, element: ir.Type) -> ir.Value:
    return stablehlo.constant(value, result_type=ir.RankedTensorType.get([], element))


def potrf(op: ir.Operation, a: ir.Value):
    lower = lapack_chars(op).get("uplo", "L") == "L"
    factor = Num(stablehlo.cholesky(a, lower=lower))
    rows, columns = positions(factor)
    out = select(rows >= columns if lower else rows <= columns, factor, Num(a))
    # info: 0 when every diagonal entry is positive and finite (JAX NaNs the rest out)
    bad = rows.eq(columns) & ~(is_finite(real(factor)) & (real(factor) > 0.0))
    rank = factor.type.rank
    any_bad = any_over(bad, [rank - 2, rank - 1])
    info_type, info_element = op.results[1].type, element_of(op.results[1])
    info = select(any_bad, broadcast_scalar(Num(scalar_constant(1, info_element)), info_type),
                  broadcast_scalar(Num(scalar_constant(0, info_element)), info_type))
    return [out.value, info.value]


_TRANSPOSE = {"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}


def trsm(op: ir.Operation, a: ir.Value, b: ir.Value):
    chars = lapack_chars(op)
    return stablehlo.triangular_solve(
        a, b, left_side=chars.get("side", "L") == "L", lower=chars.get("uplo", "L") == "L",
        unit_diagonal=chars.get("diag", "N") == "U",
        transpose_a=_TRANSPOSE[chars.get("trans_x", "N")])


def spread(x: Num, like: Num, dimension: int) -> Num:
    """x (like's shape without `dimension`) broadcast back along `dimension`."""
    rank = like.type.rank
    kept = [d for d in range(rank) if d != dimension]
    return Num(stablehlo.broadcast_in_dim(x.value, broadcast_dimensions=kept,
                                          result_type=with_element(like.type, x.element)))


def broadcast_scalar(scalar: Num, t: ir.RankedTensorType) -> Num:
    """A scalar broadcast to every element of type `t`."""
    return Num(stablehlo.broadcast_in_dim(scalar.value, broadcast_dimensions=[], result_type=t))


def magnitude(x: Num) -> Num:
    """|x|, or |re| + |im| for complex x (LAPACK's pivot size)."""
    if "complex" in str(x.element):
        return abs(real(x)) + abs(Num(stablehlo.imag(x.value)))
    return abs(x)


def getrf(op: ir.Operation, a: ir.Value):
    a = Num(a)
    rank = a.type.rank
    m, n = a.type.shape[-2:]
    rows, columns = positions(a)
    i32 = ir.IntegerType.get_signless(32)
    ipiv_type, info_type = (ir.RankedTensorType(r.type) for r in op.results[1:])
    slots = Num(stablehlo.iota(iota_dimension=rank - 2, result_type=ipiv_type))
    row_ids = Num(stablehlo.iota(iota_dimension=rank - 2, result_type=ir.RankedTensorType.get(
        a.type.shape[:-1], i32)))                                                # [..., m]

    def cond(j, *_):
        return stablehlo.compare(j, scalar_constant(min(m, n), i32), comparison_direction="LT")

    def body(j, lu, ipiv, info):
        j, lu, ipiv, info = Num(j), Num(lu), Num(ipiv), Num(info)
        jj = broadcast_scalar(j, rows.type)
        in_column = columns.eq(jj)
        # the pivot row: the first at or below j with the largest magnitude in column j
        column = sum_over(select(in_column, lu, lu.like(0)), [rank - 1])             # [..., m]
        size = magnitude(column)
        size = select(row_ids >= broadcast_scalar(j, row_ids.type), size, size.like(-1))
        largest = max_over(size, [rank - 2], -2)
        first = select(size.eq(spread(largest, size, rank - 2)), row_ids, row_ids.like(m))
        p = min_over(first, [rank - 2], m)                                           # [...]
        pp = spread(spread(p, row_ids, rank - 2), rows, rank - 1)
        # rows j and p trade places
        row_j = spread(sum_over(select(rows.eq(jj), lu, lu.like(0)), [rank - 2]), lu, rank - 2)
        row_p = spread(sum_over(select(rows.eq(pp), lu, lu.like(0)), [rank - 2]), lu, rank - 2)
        lu = select(rows.eq(jj), row_p, select(rows.eq(pp), row_j, lu))
        ipiv = select(slots.eq(broadcast_scalar(j, ipiv_type)), spread(p, slots, rank - 2) + 1, ipiv)
        # the column below the pivot divided by it (left as it is for a zero pivot), and the
        # trailing block's rank-one update
        # (the pivot is column j's entry in row p, picked from the column: taken from row_p's
        # matrix instead, IREE fuses that sum into its users wrongly from 17 rows on:
        # docs/iree_gaps.md#passescustom_callslapackffi_calls)
        pivot_value = sum_over(select(row_ids.eq(spread(p, row_ids, rank - 2)), column,
                                      column.like(0)), [rank - 2])                     # [...]
        pivot = spread(spread(pivot_value, row_ids, rank - 2), lu, rank - 1)
        zero_pivot = pivot.eq(lu.like(0))
        below = in_column & (rows > jj)
        lu = select(below & ~zero_pivot, lu / select(zero_pivot, lu.like(1), pivot), lu)
        multipliers = spread(sum_over(select(below, lu, lu.like(0)), [rank - 1]), lu, rank - 1)
        trailing = (rows > jj) & (columns > jj)
        lu = select(trailing, lu - multipliers * row_p, lu)
        # info: the first zero pivot, 1-based
        singular = any_over(zero_pivot & in_column & rows.eq(jj), [rank - 2, rank - 1])
        info = select(singular & info.eq(0), broadcast_scalar(j + 1, info_type), info)
        return [(j + 1).value, lu.value, ipiv.value, info.value]

    zero = Num(scalar_constant(0, i32))
    start = [zero.value, a.value, broadcast_scalar(zero, ipiv_type).value, broadcast_scalar(zero, info_type).value]
    _, lu, ipiv, info = extras.while_(start, cond, body)
    return [lu, ipiv, info]


def selected_column(x: Num, in_column: Num, rank: int) -> Num:
    """The column selected by `in_column`, spread back over every column."""
    return spread(sum_over(select(in_column, x, x.like(0)), [rank - 1]), x, rank - 1)


def _reflect(x: Num, v: Num, tau: Num, rows: Num, columns: Num, j: Num, after: bool,
             rank: int) -> Num:
    """(I - tau v v^H) x on rows >= j, for the columns after j (after) or all columns."""
    jj = broadcast_scalar(j, rows.type)
    w = spread(sum_over(select(rows >= jj, conj(v) * x, x.like(0)), [rank - 2]), x,
                rank - 2)                                                        # v^H x
    target = (rows >= jj) & (columns > jj) if after else rows >= jj
    return select(target, x - tau * v * w, x)


def _as_element_of(r: Num, x: Num) -> Num:
    """A real Num in x's element type (a zero imaginary part for complex x)."""
    return complex_(r, r.like(0)) if is_complex(x.element) else r


def reflector(alpha: Num, norm2: Num, like: Num) -> tuple[Num, Num, Num, Num]:
    """LAPACK's xlarfg for a column (alpha, x) with |x|^2 = norm2: (whether it reflects, beta,
    tau, the scale taking x to v) with beta = -sign(re alpha) |(alpha, x)|, tau = (beta -
    alpha) / beta, v = x / (alpha - beta); tau = 0 when x is zero and alpha real."""
    if is_complex(like.element):
        re, im = real(alpha), imag(alpha)
        reflect = (norm2 > norm2.like(0)) | ~im.eq(im.like(0))
        norm = sqrt(re * re + im * im + norm2)
    else:
        re = alpha
        reflect = norm2 > norm2.like(0)
        norm = sqrt(alpha * alpha + norm2)
    beta = _as_element_of(select(re >= re.like(0), -norm, norm), like)
    tau = select(reflect, (beta - alpha) / select(reflect, beta, like.like(1)), like.like(0))
    scale = select(reflect, 1.0 / select(reflect, alpha - beta, like.like(1)), like.like(0))
    return reflect, beta, tau, scale


def geqrf(op: ir.Operation, a: ir.Value):
    return householder_qr(Num(a), ir.RankedTensorType(op.results[1].type))


def householder_qr(a: Num, tau_type: ir.RankedTensorType) -> list[ir.Value]:
    """LAPACK's geqr2 (zgeqr2 for complex) on (batches of) matrices: [R with the reflectors
    below, taus]."""
    m, n = a.type.shape[-2:]
    i32 = ir.IntegerType.get_signless(32)
    step = HouseholderStep(a, tau_type)

    def cond(j, *_):
        return stablehlo.compare(j, scalar_constant(min(m, n), i32), comparison_direction="LT")

    def body(j, qr, taus):
        qr, taus = step(Num(j), Num(qr), Num(taus))
        return [(Num(j) + 1).value, qr.value, taus.value]

    zero = Num(scalar_constant(0, i32))
    start = [zero.value, a.value, broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type).value]
    _, qr, taus = extras.while_(start, cond, body)
    return [qr, taus]


class HouseholderStep:
    """Step j of geqr2 on (batches of) matrices like `a`: the reflector of column j (rows >= j)
    applied to the columns after j, kept below the diagonal, beta on it, tau in taus[j]."""

    def __init__(self, a: Num, tau_type: ir.RankedTensorType):
        self.rank = a.type.rank
        self.rows, self.columns = positions(a)
        self.slots = Num(stablehlo.iota(iota_dimension=self.rank - 2, result_type=(
            ir.RankedTensorType.get(tau_type.shape, ir.IntegerType.get_signless(32)))))

    def __call__(self, j: Num, qr: Num, taus: Num) -> tuple[Num, Num]:
        rank, rows, columns, slots = self.rank, self.rows, self.columns, self.slots
        jj = broadcast_scalar(j, rows.type)
        in_column = columns.eq(jj)
        column = selected_column(qr, in_column, rank)
        alpha = spread(sum_over(select(rows.eq(jj), column, qr.like(0)), [rank - 2]), qr, rank - 2)
        below = rows > jj
        norm2 = real(spread(sum_over(select(below, column * conj(column), qr.like(0)),
                                      [rank - 2]), qr, rank - 2))                 # |x|^2, real
        reflect, beta, tau, scale = reflector(alpha, norm2, qr)
        v = select(rows.eq(jj), qr.like(1), select(below, column * scale, qr.like(0)))
        qr = _reflect(qr, v, conj(tau), rows, columns, j, True, rank)     # H^H on the left
        qr = select(in_column & below, select(reflect, v, qr), qr)
        qr = select(in_column & rows.eq(jj) & reflect, beta, qr)
        # two reduces: IREE computes one over both dimensions wrongly here
        # (docs/iree_gaps.md#passescustom_callslapackffi_calls)
        tau_j = sum_over(sum_over(select(in_column & rows.eq(jj), tau, qr.like(0)), [rank - 1]),
                         [rank - 2])
        taus = select(slots.eq(broadcast_scalar(j, slots.type)), spread(tau_j, taus, rank - 2), taus)
        return qr, taus


def orgqr(op: ir.Operation, a: ir.Value, tau: ir.Value):
    return q_from_reflectors(Num(a), Num(tau))


def q_from_reflectors(a: Num, tau: Num) -> list[ir.Value]:
    """LAPACK's org2r (ung2r for complex): the first columns (as many as a has) of the
    product of the reflectors that householder_qr left in `a` and `tau`."""
    rank = a.type.rank
    rows, columns = positions(a)
    i32 = ir.IntegerType.get_signless(32)
    k = tau.type.shape[-1]
    slots = Num(stablehlo.iota(iota_dimension=rank - 2, result_type=ir.RankedTensorType.get(
        tau.type.shape, i32)))
    identity = select(rows.eq(columns), a.like(1), a.like(0))

    def cond(j, *_):
        return stablehlo.compare(j, scalar_constant(0, i32), comparison_direction="GE")

    def body(j, q):
        j, q = Num(j), Num(q)
        jj = broadcast_scalar(j, rows.type)
        v = select(rows.eq(jj), a.like(1), select(rows > jj, selected_column(a, columns.eq(jj), rank),
                                                  a.like(0)))
        tau_j = sum_over(select(slots.eq(broadcast_scalar(j, slots.type)), tau, tau.like(0)), [rank - 2])
        tau_full = Num(stablehlo.broadcast_in_dim(
            tau_j.value, broadcast_dimensions=list(range(rank - 2)), result_type=a.type))
        q = _reflect(q, v, tau_full, rows, columns, j, False, rank)
        return [(j - 1).value, q.value]

    start = [Num(scalar_constant(k - 1, i32)).value, identity.value]
    _, q = extras.while_(start, cond, body)
    return [q]


for _p in _PREFIXES:
    register_custom_call(f"lapack_{_p}geqrf_ffi", geqrf, static_shapes_only=True)
for _name in ("sorgqr", "dorgqr", "cungqr", "zungqr"):
    register_custom_call(f"lapack_{_name}_ffi", orgqr, static_shapes_only=True)

for _p in _PREFIXES:
    register_custom_call(f"lapack_{_p}potrf_ffi", potrf, static_shapes_only=True)
    register_custom_call(f"lapack_{_p}trsm_ffi", trsm, static_shapes_only=True)
    register_custom_call(f"lapack_{_p}getrf_ffi", getrf, static_shapes_only=True)
