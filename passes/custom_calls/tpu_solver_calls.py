"""Decompositions of the linear-algebra custom calls that JAX emits for TPUs (XLA's TPU
fallbacks), registered with shlo-expand-custom-calls, so that jax.numpy.linalg programs
exported for TPUs compile. Each returns a tuple (the call's one result) of what a LAPACK
decomposition computes, called on a LAPACK view of the call (shlo.passes.custom_calls.gpu_solver_calls):

* LuDecomposition(a) -> (lu, pivots, permutation): lapack_calls.getrf, its 1-based pivots
  made 0-based, and the permutation they amount to (gpu_solver_calls.permutation); XLA's TPU
  LU reports no singularity (a zero pivot leaves its column unscaled here, as LAPACK);
* Qr(a) -> (a', taus): lapack_calls.geqrf (Householder reflectors as LAPACK's, which is what
  XLA's QR expander builds), and ProductOfElementaryHouseholderReflectors(a, taus) -> q (not a
  tuple): lapack_calls.orgqr;
* Eigh(a) -> (vectors, w): lapack_syevd.syevd, the triangle from the first field of
  backend_config ("lower,sort_eigenvalues,max_iterations,tolerance"); the eigenvalues come out
  ascending whether sorting was asked for or not (an unsorted order is XLA's choice, not a
  contract).
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..lib.expr import Num
from .gpu_solver_calls import LapackView, permutation, register_like
from .lapack.ffi_calls import geqrf, getrf, orgqr
from .lapack.syevd import syevd


def _elements(op: ir.Operation) -> list[ir.RankedTensorType]:
    """The tensor types inside the call's tuple result."""
    t = ir.TupleType(op.results[0].type)
    return [ir.RankedTensorType(t.get_type(i)) for i in range(t.num_types)]


def _tuple(values) -> ir.Value:
    return stablehlo.tuple([v.value if isinstance(v, Num) else v for v in values])


def lu_decomposition(op: ir.Operation, a: ir.Value):
    lu_type, pivots_type, perm_type = _elements(op)
    info_type = ir.RankedTensorType.get(lu_type.shape[:-2], ir.IntegerType.get_signless(32))
    lu, ipiv, _ = getrf(LapackView({}, [lu_type, pivots_type, info_type]), a)
    pivots = Num(ipiv) - 1
    return _tuple([lu, pivots, permutation(pivots, perm_type)])


def qr(op: ir.Operation, a: ir.Value):
    return _tuple(geqrf(LapackView({}, _elements(op)), a))


def _lower(op: ir.Operation) -> bool:
    """The first field of Eigh's backend_config: 1 for the lower triangle (default)."""
    if "backend_config" not in op.attributes:
        return True
    fields = ir.StringAttr(op.attributes["backend_config"]).value.split(",")
    if fields[0].strip() not in ("0", "1"):
        raise PassError(f"stablehlo.custom_call @Eigh: backend_config {','.join(fields)!r} "
                        f"does not start with lower (0 or 1)", at=op)
    return fields[0].strip() == "1"


def eigh(op: ir.Operation, a: ir.Value):
    v_type, w_type = _elements(op)
    info_type = ir.RankedTensorType.get(v_type.shape[:-2], ir.IntegerType.get_signless(32))
    view = LapackView({"uplo": "L" if _lower(op) else "U"}, [v_type, w_type, info_type])
    vectors, w, _ = syevd(view, a)
    return _tuple([vectors, w])


register_like(("LuDecomposition",), lu_decomposition, "lapack_sgetrf_ffi")
register_like(("Qr",), qr, "lapack_sgeqrf_ffi")
register_like(("ProductOfElementaryHouseholderReflectors",), orgqr, "lapack_sorgqr_ffi")
register_like(("Eigh",), eigh, "lapack_ssyevd_ffi")
