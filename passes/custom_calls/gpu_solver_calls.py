"""Decompositions of the solver custom calls that JAX emits for CUDA (cuSOLVER, cuSPARSE) and
ROCm (hipSOLVER), registered with shlo-expand-custom-calls, so that jax.numpy.linalg programs
exported for GPUs compile. Each computes what its CPU LAPACK counterpart does (the same
layouts: logical row-major arrays, batch dimensions in front, LAPACK's result conventions), so
each is the LAPACK decomposition, called on a LAPACK view of the call: the GPU call's boolean
`lower` (in mhlo.backend_config) becomes LAPACK's uplo character, and where the results
differ the view carries the LAPACK call's result types.

* cusolver_potrf_ffi / hipsolver_potrf_ffi (cholesky) -> (factor, info): lapack_calls.potrf;
* cusolver_getrf_ffi / hipsolver_getrf_ffi (lu) -> (lu, ipiv, info), ipiv 1-based as LAPACK's
  (jax subtracts 1): lapack_calls.getrf;
* cu_lu_pivots_to_permutation / hip_lu_pivots_to_permutation: 0-based pivots [..., k] -> the
  permutation [..., m] they amount to, as jaxlib's kernel: from the identity, for i = 0 .. k-1
  in a `stablehlo.while`, entries i and pivots[i] trade places (a pivot outside 0 .. m-1 is
  skipped); each step works on whole rows with masks, batches side by side;
* cusolver_geqrf_ffi / hipsolver_geqrf_ffi -> (a', tau) and cusolver_orgqr_ffi /
  hipsolver_orgqr_ffi -> q (qr): lapack_calls.geqrf and orgqr;
* cusolver_syevd_ffi / hipsolver_syevd_ffi (eigh) -> (vectors, w, info): lapack_syevd.syevd
  (whichever `algorithm` the call asks for: QR, Jacobi or the default all give the
  eigendecomposition); the older hipsolver_syevd / hipsolver_syevj take their uplo from the
  opaque descriptor in backend_config (type, fill mode 121 upper / 122 lower, batch, n, lwork,
  each 4 bytes) and add a workspace result, left as zeros;
* cusolver_sytrd_ffi / hipsolver_sytrd_ffi (tridiagonal) -> (a', d, e, tau, info):
  lapack_sytrd.sytrd;
* cusparse_gtsv2_ffi (tridiagonal_solve) (dl, d, du, b) -> x: the x of lapack_gtsv.gtsv
  (dl[0] and du[n-1], which cuSPARSE requires to be zero, are not read; cuSPARSE reports no
  singularity, so neither does this).

Each registers with its LAPACK counterpart's cpu_flags.
"""
from __future__ import annotations

import struct

from iree.compiler import ir

from shlo.dialect import stablehlo
from shlo.errors import PassError
from ..lib import builders as extras
from ..lib.expr import Num, select, sum_over
from .registry import cpu_flags, register_custom_call
from .lapack.ffi_calls import broadcast_scalar, scalar_constant, spread, geqrf, getrf, orgqr, potrf
from .lapack.gtsv import gtsv
from .lapack.syevd import syevd
from .lapack.sytrd import sytrd


class _Result:
    """A stand-in for a call result: only its type is read."""

    def __init__(self, t: ir.Type):
        self.type = t


class LapackView:
    """A GPU solver call as a LAPACK decomposition reads it: LAPACK's character arguments
    (`chars`, e.g. uplo) in mhlo.backend_config, and the LAPACK call's result types."""

    def __init__(self, chars: dict[str, str], result_types: list[ir.Type]):
        ui8 = ir.IntegerType.get_unsigned(8)
        self.attributes = {"mhlo.backend_config": ir.DictAttr.get(
            {name: ir.IntegerAttr.get(ui8, ord(c)) for name, c in chars.items()})}
        self.results = [_Result(t) for t in result_types]


def _result_types(op: ir.Operation) -> list[ir.Type]:
    return [r.type for r in op.results]


def _lower(op: ir.Operation) -> bool:
    """The call's `lower` (True when absent): jax's GPU calls carry a boolean, not a char."""
    if "mhlo.backend_config" not in op.attributes:
        return True
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    return "lower" not in config or ir.BoolAttr(config["lower"]).value


def _uplo(op: ir.Operation) -> LapackView:
    return LapackView({"uplo": "L" if _lower(op) else "U"}, _result_types(op))


def gpu_potrf(op: ir.Operation, a: ir.Value):
    return potrf(_uplo(op), a)


def gpu_syevd(op: ir.Operation, a: ir.Value):
    return syevd(_uplo(op), a)


def gpu_sytrd(op: ir.Operation, a: ir.Value):
    return sytrd(_uplo(op), a)


_HIPSOLVER_FILL = {121: "U", 122: "L"}       # hipsolverFillMode_t


def hipsolver_legacy_syevd(op: ir.Operation, a: ir.Value):
    """hipsolver_syevd / hipsolver_syevj (api_version 2): (vectors, w, info, workspace)."""
    target = ir.StringAttr(op.attributes["call_target_name"]).value
    opaque = (ir.StringAttr(op.attributes["backend_config"]).value_bytes
              if "backend_config" in op.attributes else b"")
    if len(opaque) < 8:
        raise PassError(f"stablehlo.custom_call @{target}: its backend_config is not the "
                        f"descriptor (type, fill mode, batch, n, lwork) jaxlib wrote: cannot "
                        f"tell the triangle", at=op)
    fill = struct.unpack_from("<i", opaque, 4)[0]
    if fill not in _HIPSOLVER_FILL:
        raise PassError(f"stablehlo.custom_call @{target}: fill mode {fill} in its descriptor "
                        f"is neither hipSOLVER's upper (121) nor lower (122)", at=op)
    view = LapackView({"uplo": _HIPSOLVER_FILL[fill]}, _result_types(op)[:3])
    workspace = ir.RankedTensorType(op.results[3].type)
    zeros = broadcast_scalar(Num(scalar_constant(0, workspace.element_type)), workspace)
    return [*syevd(view, a), zeros.value]


def gtsv2(op: ir.Operation, dl: ir.Value, d: ir.Value, du: ir.Value, b: ir.Value):
    b_type = ir.RankedTensorType(b.type)
    info_type = ir.RankedTensorType.get(b_type.shape[:-2], ir.IntegerType.get_signless(32))
    view = LapackView({}, [dl.type, d.type, du.type, b.type, info_type])
    return gtsv(view, dl, d, du, b)[3]


def pivots_to_permutation(op: ir.Operation, pivots: ir.Value):
    return permutation(Num(pivots), ir.RankedTensorType(op.results[0].type))


def permutation(pivots: Num, perm_type: ir.RankedTensorType) -> ir.Value:
    """The permutation [..., m] (of type perm_type) that the 0-based row swaps `pivots`
    [..., k] amount to, as jaxlib's LuPivotsToPermutationKernel."""
    rank, k, m = perm_type.rank, pivots.type.shape[-1], perm_type.shape[-1]
    i32 = ir.IntegerType.get_signless(32)
    ids = Num(stablehlo.iota(iota_dimension=rank - 1, result_type=perm_type))       # [..., m]
    slots = Num(stablehlo.iota(iota_dimension=rank - 1, result_type=pivots.type))   # [..., k]
    if k == 0 or m == 0:
        return ids.value

    def entry(x: Num, where: Num) -> Num:
        """The entry of each row of x that `where` selects, spread back over the row."""
        return spread(sum_over(select(where, x, x.like(0)), [rank - 1]), x, rank - 1)

    def cond(i, _):
        return stablehlo.compare(i, scalar_constant(k, i32), comparison_direction="LT")

    def body(i, perm):
        i, perm = Num(i), Num(perm)
        at_i = ids.eq(broadcast_scalar(i, ids.type))
        j = sum_over(select(slots.eq(broadcast_scalar(i, slots.type)), pivots, pivots.like(0)), [rank - 1])
        j = spread(j, perm, rank - 1)                                       # pivots[..., i]
        at_j = ids.eq(j)
        in_range = (j >= 0) & (j < m)
        swapped = select(at_i, entry(perm, at_j), select(at_j, entry(perm, at_i), perm))
        return [(i + 1).value, select(in_range, swapped, perm).value]

    _, perm = extras.while_([scalar_constant(0, i32), ids.value], cond, body)
    return perm


def register_like(targets: tuple[str, ...], fn, lapack_target: str) -> None:
    """Register `fn` for `targets` with the cpu flags of the LAPACK call it reuses."""
    for target in targets:
        register_custom_call(target, fn, static_shapes_only=True,
                             cpu_flags=cpu_flags(lapack_target))


register_like(("cusolver_potrf_ffi", "hipsolver_potrf_ffi"), gpu_potrf, "lapack_spotrf_ffi")
register_like(("cusolver_getrf_ffi", "hipsolver_getrf_ffi"), getrf, "lapack_sgetrf_ffi")
register_like(("cu_lu_pivots_to_permutation", "hip_lu_pivots_to_permutation"),
              pivots_to_permutation, "")
register_like(("cusolver_geqrf_ffi", "hipsolver_geqrf_ffi"), geqrf, "lapack_sgeqrf_ffi")
register_like(("cusolver_orgqr_ffi", "hipsolver_orgqr_ffi"), orgqr, "lapack_sorgqr_ffi")
register_like(("cusolver_syevd_ffi", "hipsolver_syevd_ffi"), gpu_syevd, "lapack_ssyevd_ffi")
register_like(("hipsolver_syevd", "hipsolver_syevj"), hipsolver_legacy_syevd, "lapack_ssyevd_ffi")
register_like(("cusolver_sytrd_ffi", "hipsolver_sytrd_ffi"), gpu_sytrd, "lapack_ssytrd_ffi")
register_like(("cusparse_gtsv2_ffi",), gtsv2, "lapack_sgtsv_ffi")
