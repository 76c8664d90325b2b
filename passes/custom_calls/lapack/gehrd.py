"""The decomposition of `lapack_?gehrd_ffi` (? = s, d, c, z): `jax.lax.linalg.hessenberg` and
`jax.scipy.linalg.hessenberg` on the CPU.

gehrd(a; low, high) -> (a', tau, info): the reduction Q^H A Q = H to upper Hessenberg form,
as LAPACK's xgehd2 (zgehd2 for complex), column by column in a `stablehlo.while`. For column
i (ilo - 1 <= i < ihi - 1, 0-based) the reflector H(i) = I - tau v v^H of xlarfg annihilates
a[i+2:ihi, i] (v[i+1] = 1, beta = -sign(re alpha) |(alpha, x)|, tau = (beta - alpha) / beta,
v = x / (alpha - beta); tau = 0 when x is zero and alpha real); A := A H(i) on rows < ihi and
columns > i, then A := H(i)^H A on rows and columns > i; the reflector is kept below the
subdiagonal of column i and beta on it. a' holds H on and above the subdiagonal and the
reflectors below, tau[i] is zero outside [ilo - 1, ihi - 1), info is 0 (jax turns a
non-zero info into NaNs; the reduction cannot fail). jax's householder_product (orgqr/
ungqr, shlo.passes.custom_calls.lapack.ffi_calls) builds Q from them. Every step works on whole matrices with
masks, so batches ride along.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from shlo.passes.lib import builders as extras
from shlo.passes.lib.expr import Num, conj, real, select, sum_over
from ..registry import call_target, register_custom_call
from .ffi_calls import selected_column, broadcast_scalar, positions, scalar_constant, spread, reflector


def _int_attr(op: ir.Operation, name: str, default: int) -> int:
    if name not in op.attributes:
        return default
    return ir.IntegerAttr(op.attributes[name]).value


def transposed(x: Num) -> Num:
    """The last two dimensions of x swapped."""
    rank = x.type.rank
    return Num(stablehlo.transpose(x.value, permutation=list(range(rank - 2)) + [rank - 1,
                                                                                  rank - 2]))


def gehrd(op: ir.Operation, a: ir.Value):
    a = Num(a)
    n = a.type.shape[-1]
    ilo, ihi = _int_attr(op, "low", 1), _int_attr(op, "high", n)
    if not 1 <= ilo <= max(1, ihi) <= n and not (n == 0 and ilo == 1 and ihi == 0):
        raise PassError(f"stablehlo.custom_call @{call_target(op)}: low = {ilo} and high = {ihi} "
                        f"must satisfy 1 <= low <= high <= n = {n}", at=op)
    tau_type, info_type = (ir.RankedTensorType(r.type) for r in op.results[1:3])
    h, taus = hessenberg(a, ilo, ihi, tau_type)
    return [h.value, taus.value, broadcast_scalar(Num(scalar_constant(0, info_type.element_type)), info_type).value]


def hessenberg(a: Num, ilo: int, ihi: int, tau_type: ir.RankedTensorType) -> tuple[Num, Num]:
    """xgehd2 on (batches of) matrices: [H with the reflectors below its subdiagonal, taus]."""
    rank = a.type.rank
    taus = broadcast_scalar(Num(scalar_constant(0, tau_type.element_type)), tau_type)
    if ihi - ilo < 1:
        return a, taus
    rows, columns = positions(a)
    i32 = ir.IntegerType.get_signless(32)
    slots = Num(stablehlo.iota(iota_dimension=rank - 2, result_type=ir.RankedTensorType.get(
        tau_type.shape, i32)))
    high = broadcast_scalar(Num(scalar_constant(ihi, i32)), rows.type)

    def cond(i, *_):
        return stablehlo.compare(i, scalar_constant(ihi - 1, i32), comparison_direction="LT")

    def body(i, h, taus):
        i, h, taus = Num(i), Num(h), Num(taus)
        ii = broadcast_scalar(i, rows.type)
        p = ii + 1                                            # the row where v is 1
        in_column = columns.eq(ii)
        column = selected_column(h, in_column, rank)
        alpha = spread(sum_over(select(rows.eq(p), column, h.like(0)), [rank - 2]), h, rank - 2)
        below = (rows > p) & (rows < high)
        norm2 = real(spread(sum_over(select(below, column * conj(column), h.like(0)),
                                      [rank - 2]), h, rank - 2))                 # |x|^2
        reflect, beta, tau, scale = reflector(alpha, norm2, h)
        v = select(rows.eq(p), h.like(1), select(below, column * scale, h.like(0)))   # v[row]
        v_across = transposed(v)                                                      # v[col]
        # A := A H = A - tau (A v) v^H on rows < ihi, columns > i
        hv = spread(sum_over(h * v_across, [rank - 1]), h, rank - 1)
        h = select((rows < high) & (columns > ii), h - tau * hv * conj(v_across), h)
        # A := H^H A = A - conj(tau) v (v^H A) on rows and columns > i
        vh = spread(sum_over(conj(v) * h, [rank - 2]), h, rank - 2)
        h = select((rows > ii) & (columns > ii), h - conj(tau) * v * vh, h)
        # the reflector below the subdiagonal of column i, beta on it
        h = select(in_column & below & reflect, v, h)
        h = select(in_column & rows.eq(p) & reflect, beta, h)
        tau_i = sum_over(sum_over(select(in_column & rows.eq(p), tau, h.like(0)), [rank - 1]),
                         [rank - 2])
        taus = select(slots.eq(broadcast_scalar(i, slots.type)), spread(tau_i, taus, rank - 2), taus)
        return [(i + 1).value, h.value, taus.value]

    _, h, taus = extras.while_([scalar_constant(ilo - 1, i32), a.value, taus.value], cond, body)
    return Num(h), Num(taus)


for _p in "sdcz":
    register_custom_call(f"lapack_{_p}gehrd_ffi", gehrd, static_shapes_only=True)
