"""The LAPACK calls a compiled CPU module makes to shlo's runtime (the `shlo_lapack` VM module).

shlo-expand-custom-calls{lapack=host} (the cpu target's default) turns jax's LAPACK custom
calls into calls of `shlo_lapack.<routine>_<prefix>` (prefix s, d, c, z as LAPACK's); the
runtime (shlo.runtime.lapack_host) serves them with scipy's LAPACK. Both sides read the table
below. Matrices cross as `tensor<?x?x?xT>` (batch dimensions flattened into the first),
per-matrix vectors as `tensor<?x?xT>`, per-matrix scalars (info) as `tensor<?xi32>`; the
LAPACK character arguments as i32 character codes after the tensors.
"""
from __future__ import annotations

MODULE = "shlo_lapack"
REFLECTION_KEY = "shlo.lapack"     # iree.reflection entry on public functions of such modules

PREFIXES = {"f32": "s", "f64": "d", "complex<f32>": "c", "complex<f64>": "z"}

# routine -> (tensor operands, character/int arguments, result count). gesdd's ints after its
# mode are the shapes of u and vt the caller expects (rows, columns of each).
ROUTINES = {
    "potrf": (1, ("uplo",), 2),                        # a -> a', info
    "trsm": (2, ("side", "uplo", "trans_x", "diag"), 1),  # a, b -> x
    "getrf": (1, (), 3),                               # a -> lu, ipiv (1-based), info
    "geqrf": (1, (), 2),                               # a -> a', tau
    "orgqr": (2, (), 1),                               # a, tau -> q
    "syevd": (1, ("uplo", "mode"), 3),                 # a -> v, w, info
    "gesdd": (1, ("mode", "u_rows", "u_columns", "vt_rows", "vt_columns"), 5),
    #                                                    a -> a', s, u, vt, info
    "sytrd": (1, ("uplo",), 5),                        # a -> a', d, e, tau, info
}
# jax's names of the routines (complex ones named as LAPACK names them)
ALIASES = {"ungqr": "orgqr", "heevd": "syevd", "hetrd": "sytrd"}


def function_name(routine: str, prefix: str) -> str:
    return f"{routine}_{prefix}"


def calling_convention(routine: str) -> str:
    tensors, ints, results = ROUTINES[routine]
    return "0" + "r" * tensors + "i" * len(ints) + "_" + "r" * results
