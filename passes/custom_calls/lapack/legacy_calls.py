"""Decompositions of jaxlib's LAPACK and BLAS custom calls from before its FFI (api_version 2:
jax 0.4.30 and earlier, jax exports and StableHLO's testdata of 2023), registered with
shlo-expand-custom-calls. Each computes what the `_ffi` call of the same routine does, so each
is that call's decomposition on a LAPACK view of the old call (shlo.passes.custom_calls.gpu_solver_calls):
the old convention passes sizes and flags as scalar operands before the matrices (the flags
must be constants: jaxlib wrote them so), returns a tuple (early 2023) or several results,
and has workspace results of its own (`work`, `iwork`, `rwork`), which come back as zeros.

| call (? = s, d, c, z) | operands | results |
|---|---|---|
| blas_?trsm | left_side, lower, trans_a (0 N, 1 T, 2 C), unit_diagonal, m, n, batch, alpha, a, b | alpha op(a)^-1 b (or b op(a)^-1) |
| lapack_?getrf | batch, m, n, a | lu, ipiv (1-based), info |
| lapack_?geqrf | batch, m, n, lwork, a | a', tau, info, work |
| lapack_?orgqr, ?ungqr | batch, m, n, k, lwork, a, tau | q, info, work |
| lapack_?potrf | lower, batch, n, a | factor, info |
| lapack_?syevd, ?heevd | lower, batch, n, a | vectors, w, info, workspaces |
| lapack_?gesdd | full_matrices, compute_uv, batch, m, n, lwork, a | a, s, u, vt, info, workspaces |
| lapack_?geev | batch, n, jobvl, jobvr ('V'/'N' as ui8), a | workspaces, w (wr, wi if real), vl, vr (complex), info |
| lapack_?gees | batch, n, jobvs, sort ('V'/'N' as ui8; 'N': unsorted only) | t, wr, wi (or rwork, w), vs, sdim, info |
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from shlo.passes.lib.expr import Num
from ..registry import call_target
from ..gpu_solver_calls import LapackView, register_like
from .ffi_calls import geqrf, getrf, orgqr, potrf, trsm
from .gees import gees
from .geev import geev
from .gesdd import gesdd
from .syevd import syevd
from shlo.passes.shapes.refine_fold import evaluate

_PREFIXES = "sdcz"


def _flags(op: ir.Operation, count: int) -> list[int]:
    """The values of the call's first `count` operands (its sizes and flags)."""
    values = []
    for i in range(count):
        known = evaluate(op.operands[i])
        if known is None:
            raise PassError(f"stablehlo.custom_call @{call_target(op)}: operand {i} (a size or flag "
                            f"of jaxlib's old LAPACK convention) is not a compile-time constant",
                            at=op)
        values.append(int(known.reshape(-1)[0]))
    return values


def _result_types(op: ir.Operation) -> list[ir.Type]:
    """The call's result types, a tuple result's elements spread out."""
    if len(op.results) == 1 and isinstance(op.results[0].type.maybe_downcast(), ir.TupleType):
        t = ir.TupleType(op.results[0].type)
        return [t.get_type(i) for i in range(t.num_types)]
    return [r.type for r in op.results]


def _results(op: ir.Operation, values: list, first: int = 0) -> list[ir.Value]:
    """`values` (the call's results from the `first` on; the workspaces around them are
    zeros) in the call's own form: one tuple, or one value per result."""
    types = _result_types(op)
    values = [v.value if isinstance(v, Num) else v for v in values]
    values = [stablehlo.constant(0, result_type=t) for t in types[:first]] + values
    values += [stablehlo.constant(0, result_type=t) for t in types[len(values):]]
    if len(op.results) == 1 and isinstance(op.results[0].type.maybe_downcast(), ir.TupleType):
        return [stablehlo.tuple(values)]
    return values


def _view(op: ir.Operation, chars: dict[str, str], count: int) -> LapackView:
    """The `_ffi` call's view: LAPACK characters, and the first `count` result types."""
    return LapackView(chars, _result_types(op)[:count])


def legacy_trsm(op: ir.Operation, *operands):
    left_side, lower, trans_a, unit_diagonal = _flags(op, 4)
    alpha, a, b = operands[7:]
    if trans_a not in (0, 1, 2):
        raise PassError(f"stablehlo.custom_call @{call_target(op)}: trans_a is {trans_a}; jaxlib "
                        f"passes 0 (N), 1 (T) or 2 (C)", at=op)
    known = evaluate(alpha)
    if known is None or float(abs(known.reshape(-1)[0] - 1)) != 0:     # X = alpha op(A)^-1 B
        b = (Num(b) * Num(stablehlo.broadcast_in_dim(alpha, broadcast_dimensions=[],
                                                     result_type=b.type))).value
    chars = {"side": "L" if left_side else "R", "uplo": "L" if lower else "U",
             "trans_x": "NTC"[trans_a], "diag": "U" if unit_diagonal else "N"}
    return _results(op, [trsm(_view(op, chars, 1), a, b)])


def legacy_getrf(op: ir.Operation, *operands):
    return _results(op, getrf(_view(op, {}, 3), operands[3]))


def legacy_geqrf(op: ir.Operation, *operands):
    qr, taus = geqrf(_view(op, {}, 2), operands[4])
    return _results(op, [qr, taus])


def legacy_orgqr(op: ir.Operation, *operands):
    return _results(op, orgqr(_view(op, {}, 1), *operands[5:]))


def legacy_potrf(op: ir.Operation, *operands):
    lower, = _flags(op, 1)
    return _results(op, potrf(_view(op, {"uplo": "L" if lower else "U"}, 2), operands[3]))


def legacy_syevd(op: ir.Operation, *operands):
    lower, = _flags(op, 1)
    return _results(op, syevd(_view(op, {"uplo": "L" if lower else "U"}, 3), operands[3]))


def legacy_gesdd(op: ir.Operation, *operands):
    return _results(op, gesdd(_view(op, {}, 5), operands[6]))


def legacy_geev(op: ir.Operation, *operands):
    _, _, jobvl, jobvr = _flags(op, 4)
    types = _result_types(op)
    count = 4 if isinstance(operands[4].type.element_type, ir.ComplexType) else 5
    view = LapackView({"compute_left": chr(jobvl), "compute_right": chr(jobvr)},
                      types[-count:])
    return _results(op, geev(view, operands[4]), first=len(types) - count)


def legacy_gees(op: ir.Operation, *operands):
    _, _, jobvs, sort = _flags(op, 4)
    if chr(sort) != "N":
        raise PassError(f"stablehlo.custom_call @{call_target(op)}: sorted Schur forms are not "
                        f"supported (jax does not emit them)", at=op)
    types = _result_types(op)
    t, z, *w, sdim, info = gees(LapackView({"mode": chr(jobvs)}, types), operands[4])
    if len(w) == 1:                               # complex: rwork comes before w
        return _results(op, [t, stablehlo.constant(0, result_type=types[1]), w[0], z, sdim,
                             info])
    return _results(op, [t, *w, z, sdim, info])


for _p in _PREFIXES:
    register_like((f"blas_{_p}trsm",), legacy_trsm, f"lapack_{_p}trsm_ffi")
    register_like((f"lapack_{_p}getrf",), legacy_getrf, f"lapack_{_p}getrf_ffi")
    register_like((f"lapack_{_p}geqrf",), legacy_geqrf, f"lapack_{_p}geqrf_ffi")
    register_like((f"lapack_{_p}potrf",), legacy_potrf, f"lapack_{_p}potrf_ffi")
    register_like((f"lapack_{_p}gesdd",), legacy_gesdd, f"lapack_{_p}gesdd_ffi")
    register_like((f"lapack_{_p}geev",), legacy_geev, f"lapack_{_p}geev_ffi")
    register_like((f"lapack_{_p}gees",), legacy_gees, f"lapack_{_p}gees_ffi")
for _name in ("sorgqr", "dorgqr", "cungqr", "zungqr"):
    register_like((f"lapack_{_name}",), legacy_orgqr, f"lapack_{_name}_ffi")
for _name in ("ssyevd", "dsyevd", "cheevd", "zheevd"):
    register_like((f"lapack_{_name}",), legacy_syevd, f"lapack_{_name}_ffi")
