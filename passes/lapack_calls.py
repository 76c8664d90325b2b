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

Other LAPACK targets (getrf, geqrf, syevd, gesdd, geev: solve, inv, det, qr, eigh, svd) are not
decomposed and stay a clear error that names them.
"""
from __future__ import annotations

from iree.compiler import ir

from ..dialect import stablehlo
from .chlo_expr import Num, element_of, is_finite, real, select
from .custom_call import register_custom_call

_PREFIXES = "sdcz"


def _chars(op: ir.Operation) -> dict[str, str]:
    """The LAPACK character arguments of a call, from its mhlo.backend_config."""
    if "mhlo.backend_config" not in op.attributes:
        return {}
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    return {config[i].name: chr(ir.IntegerAttr(config[i].attr).value) for i in range(len(config))}


def _positions(x: Num) -> tuple[Num, Num]:
    """Row and column index of every element of a (batch of) matrices."""
    i32 = ir.RankedTensorType.get(x.type.shape, ir.IntegerType.get_signless(32))
    rank = x.type.rank
    return (Num(stablehlo.iota(iota_dimension=rank - 2, result_type=i32)),
            Num(stablehlo.iota(iota_dimension=rank - 1, result_type=i32)))


def _scalar(value, element: ir.Type) -> ir.Value:
    return stablehlo.constant(value, result_type=ir.RankedTensorType.get([], element))


def potrf(op: ir.Operation, a: ir.Value):
    lower = _chars(op).get("uplo", "L") == "L"
    factor = Num(stablehlo.cholesky(a, lower=lower))
    rows, columns = _positions(factor)
    out = select(rows >= columns if lower else rows <= columns, factor, Num(a))
    # info: 0 when every diagonal entry is positive and finite (JAX NaNs the rest out)
    bad = rows.eq(columns) & ~(is_finite(real(factor)) & (real(factor) > 0.0))
    i1 = ir.IntegerType.get_signless(1)
    rank = factor.type.rank
    any_bad = Num(stablehlo.reduce([bad.value], [_scalar(False, i1)],
                                   dimensions=[rank - 2, rank - 1],
                                   body=lambda x, y: stablehlo.or_(x, y)))
    info_element = element_of(op.results[1])
    info = select(any_bad, Num(stablehlo.broadcast_in_dim(
        _scalar(1, info_element), broadcast_dimensions=[], result_type=op.results[1].type)),
                  Num(stablehlo.broadcast_in_dim(
        _scalar(0, info_element), broadcast_dimensions=[], result_type=op.results[1].type)))
    return [out.value, info.value]


_TRANSPOSE = {"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}


def trsm(op: ir.Operation, a: ir.Value, b: ir.Value):
    chars = _chars(op)
    return stablehlo.triangular_solve(
        a, b, left_side=chars.get("side", "L") == "L", lower=chars.get("uplo", "L") == "L",
        unit_diagonal=chars.get("diag", "N") == "U",
        transpose_a=_TRANSPOSE[chars.get("trans_x", "N")])


for _p in _PREFIXES:
    register_custom_call(f"lapack_{_p}potrf_ffi", potrf)
    register_custom_call(f"lapack_{_p}trsm_ffi", trsm)
