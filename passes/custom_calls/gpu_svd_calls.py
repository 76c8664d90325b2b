"""The decompositions of the SVD custom calls jax emits for CUDA and ROCm (`jnp.linalg.svd`,
pinv, svdvals, matrix_rank, norm(ord=2) exported for a GPU): `cusolver_gesvdj_ffi`,
`cusolver_gesvd_ffi`, `cusolver_gesdd_ffi`, `cusolver_gesvdp_ffi` and their `hipsolver_`
twins. Each is the one-sided Jacobi SVD of shlo.passes.custom_calls.lapack.gesdd; they differ in what
they return:

* gesvdj, gesvdp (a) -> (a', s, u, v, info): V itself (jax takes its adjoint), u [m, m or k]
  and v [n, n or k];
* gesvd, gesdd (a) -> (a', s, u, vt, info); for gesvd with `transposed = true` (jax's choice
  for a wide matrix: cuSOLVER's gesvd wants m >= n, so it factors the transpose) the third
  result is vt and the fourth u.

The results' types give the shapes (full or reduced); a u or v of rank 0 (compute_uv =
false) is zero. info is 0.
"""
from __future__ import annotations

from iree.compiler import ir

from shlo.dialect import stablehlo
from ..lib.expr import Num
from .registry import call_target, register_custom_call
from .lapack.gesdd import fit, svd
from .lapack.syevd import adjoint


def _transposed(op: ir.Operation) -> bool:
    if "mhlo.backend_config" not in op.attributes:
        return False
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    return "transposed" in config and ir.BoolAttr(config["transposed"]).value


def svd_call(op: ir.Operation, a: ir.Value):
    s, u, vt = svd(Num(a))
    returns_v = call_target(op).endswith(("gesvdj_ffi", "gesvdp_ffi"))
    second = adjoint(vt, a.type.rank - 2) if returns_v else vt
    first_type, second_type = (ir.RankedTensorType(r.type) for r in op.results[2:4])
    if _transposed(op):
        outputs = [fit(second, first_type), fit(u, second_type)]
    else:
        outputs = [fit(u, first_type), fit(second, second_type)]
    info = stablehlo.constant(0, result_type=op.results[4].type)
    return [a, s.value, *outputs, info]


for _prefix in ("cusolver", "hipsolver"):
    for _name in ("gesvdj", "gesvd", "gesdd", "gesvdp"):
        register_custom_call(f"{_prefix}_{_name}_ffi", svd_call, static_shapes_only=True)
