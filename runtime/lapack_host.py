"""The `shlo_lapack` VM module: LAPACK (scipy's) for the calls a compiled CPU module makes in
place of jax's LAPACK custom calls (shlo.passes.custom_calls.lapack.host_calls; core/lapack_abi is the
contract). Each function takes (batches of) matrices as buffer views, runs the routine on
each matrix with scipy.linalg.lapack (scipy.linalg.blas for trsm), and returns new buffer
views; the results are LAPACK's own, as jax's CPU kernels return them.
"""
from __future__ import annotations

import ctypes
import functools
import glob
import os
import threading
from collections.abc import Callable

import iree.runtime as rt
import numpy as np

from .. import lapack_abi
from ..errors import InvocationError
from .standalone_loader import download, upload

_DTYPES = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}
_REAL = {"s": np.float32, "d": np.float64, "c": np.float32, "z": np.float64}
_TRANS = {"N": 0, "T": 1, "C": 2}
_CHARACTERS = frozenset({"uplo", "side", "trans_x", "diag", "mode"})
_FAILED = threading.local()


class LapackError(InvocationError):
    """A LAPACK routine of shlo's runtime failed (not a LAPACK info code: those are results)."""


def _lapack(prefix: str, name: str):
    import scipy.linalg.lapack
    return getattr(scipy.linalg.lapack, prefix + name)


@functools.cache
def _work(prefix: str, name: str, *args, **options) -> tuple[int, ...]:
    """LAPACK's optimal workspace sizes for a routine (its `_lwork` query): with less, the
    blocked routines fall back to their unblocked forms, slower and with other roundings
    than jax's kernels, which query too."""
    sizes = _lapack(prefix, name + "_lwork")(*args, **options)[:-1]
    return tuple(max(1, int(np.real(x))) for x in sizes)


def potrf(prefix, a, uplo):
    fn = _lapack(prefix, "potrf")
    out, info = np.empty_like(a), np.zeros(len(a), np.int32)
    for k, m in enumerate(a):
        out[k], info[k] = fn(m, lower=uplo == "L", clean=0)
    return out, info


def trsm(prefix, a, b, side, uplo, trans_x, diag):
    import scipy.linalg.blas
    fn = getattr(scipy.linalg.blas, prefix + "trsm")
    out = np.empty_like(b)
    for k in range(len(b)):
        out[k] = fn(1.0, a[k], b[k], side=int(side == "R"), lower=int(uplo == "L"),
                    trans_a=_TRANS[trans_x], diag=int(diag == "U"))
    return (out,)


def getrf(prefix, a):
    fn = _lapack(prefix, "getrf")
    rows = min(a.shape[1:])
    out, info = np.empty_like(a), np.zeros(len(a), np.int32)
    ipiv = np.zeros((len(a), rows), np.int32)
    for k, m in enumerate(a):
        out[k], piv, info[k] = fn(m)
        ipiv[k] = piv[:rows] + 1
    return out, ipiv, info


def geqrf(prefix, a):
    fn = _lapack(prefix, "geqrf")
    out, tau = np.empty_like(a), np.zeros((len(a), min(a.shape[1:])), a.dtype)
    (lwork,) = _work(prefix, "geqrf", *a.shape[1:])
    for k, m in enumerate(a):
        out[k], tau[k], _, _ = fn(m, lwork=lwork)
    return out, tau


def orgqr(prefix, a, tau):
    fn = _lapack(prefix, "orgqr" if prefix in "sd" else "ungqr")
    out = np.empty_like(a)
    for k, m in enumerate(a):
        out[k] = fn(m, tau[k], lwork=64 * max(m.shape))[0] if tau.shape[1] else \
            np.eye(*m.shape, dtype=a.dtype)
    return (out,)


def syevd(prefix, a, uplo, mode):
    fn = _lapack(prefix, "syevd" if prefix in "sd" else "heevd")
    out, w = np.empty_like(a), np.zeros(a.shape[:2], _REAL[prefix])
    info = np.zeros(len(a), np.int32)
    options = dict(compute_v=int(mode == "V"), lower=int(uplo == "L"))
    work = _work(prefix, "syevd" if prefix in "sd" else "heevd", a.shape[1], **options)
    names = ("lwork", "liwork") if prefix in "sd" else ("lwork", "liwork", "lrwork")
    for k, m in enumerate(a):
        w[k], v, info[k] = fn(m, **options, **dict(zip(names, work)))
        out[k] = v if mode == "V" else m
    return out, w, info


def gesdd(prefix, a, mode, u_rows, u_columns, vt_rows, vt_columns):
    fn = _lapack(prefix, "gesdd")
    batch, m, n = a.shape
    s = np.zeros((batch, min(m, n)), _REAL[prefix])
    u = np.zeros((batch, u_rows, u_columns), a.dtype)
    vt = np.zeros((batch, vt_rows, vt_columns), a.dtype)
    info = np.zeros(batch, np.int32)
    options = dict(compute_uv=int(mode != "N"), full_matrices=int(mode == "A"))
    (lwork,) = _work(prefix, "gesdd", m, n, **options)
    for k, x in enumerate(a):
        if mode == "N":
            _, s[k], _, info[k] = fn(x, **options, lwork=lwork)
        else:
            u[k], s[k], vt[k], info[k] = fn(x, **options, lwork=lwork)
    return a.copy(), s, u, vt, info


def sytrd(prefix, a, uplo):
    fn = _lapack(prefix, "sytrd" if prefix in "sd" else "hetrd")
    batch, n = a.shape[:2]
    out = np.empty_like(a)
    d = np.zeros((batch, n), _REAL[prefix])
    e = np.zeros((batch, max(n - 1, 0)), _REAL[prefix])
    tau = np.zeros((batch, max(n - 1, 0)), a.dtype)
    info = np.zeros(batch, np.int32)
    (lwork,) = _work(prefix, "sytrd" if prefix in "sd" else "hetrd", n, lower=int(uplo == "L"))
    for k, m in enumerate(a):
        out[k], d[k], e[k], tau[k], info[k] = fn(m, lower=int(uplo == "L"), lwork=lwork)
    return out, d, e, tau, info


ROUTINES: dict[str, Callable[..., tuple]] = {
    "potrf": potrf, "trsm": trsm, "getrf": getrf, "geqrf": geqrf, "orgqr": orgqr, "syevd": syevd,
    "gesdd": gesdd, "sytrd": sytrd}


# matrices of at most this many rows and columns are factored on the calling thread alone:
# OpenBLAS's threads (scipy's, which XLA's CPU kernels share) cost far more than they save
# there once other work loads the cores (spotrf of 256 rows, 2 cores under a load of 20:
# 2.6-135 ms of CPU with its 2 threads, 0.27 ms with one)
ONE_THREAD_DIMENSION = 256


@functools.cache
def _local_threads() -> Callable[[int], int] | None:
    """scipy's OpenBLAS's `openblas_set_num_threads_local` (the calling thread's count,
    returning the previous one), or None where scipy's LAPACK is not that OpenBLAS."""
    import scipy
    libs = os.path.join(os.path.dirname(scipy.__file__), os.pardir, "scipy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "libscipy_openblas*.so"))):
        try:
            setter = ctypes.CDLL(path).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        setter.restype, setter.argtypes = ctypes.c_int, [ctypes.c_int]
        return setter
    return None


def _one_thread(arrays) -> bool:
    """Whether a call on these arrays should run OpenBLAS on the calling thread alone."""
    return all(max(a.shape[1:], default=0) <= ONE_THREAD_DIMENSION for a in arrays)


def _function(device, routine: str, prefix: str):
    """The host function of `routine` for element type `prefix`: buffer views and i32
    character codes in, buffer views out."""
    tensors, ints, _ = lapack_abi.ROUTINES[routine]
    dtype = _DTYPES[prefix]

    def call(_state, *args):
        arrays = []
        try:
            arrays = [download(device, ref.deref(rt.HalBufferView), np.dtype(dtype))
                      for ref in args[:tensors]]
            chars = [chr(c) if name in _CHARACTERS else c for name, c in zip(ints, args[tensors:])]
            setter = _local_threads() if _one_thread(arrays) else None
            previous = setter(1) if setter is not None else 0
            try:
                results = ROUTINES[routine](prefix, *arrays, *chars)
            finally:
                if setter is not None:
                    setter(previous)
            refs = tuple(upload(device, np.ascontiguousarray(r), _element(r.dtype)).ref
                         for r in results)
        except Exception as e:
            # IREE passes on only a traceback: the error is kept for the caller (take_error)
            _FAILED.error = LapackError(
                f"{lapack_abi.MODULE}.{lapack_abi.function_name(routine, prefix)} on "
                f"{' and '.join(str(a.shape) for a in arrays)}: {type(e).__name__}: {e}")
            raise _FAILED.error from None
        return refs if len(refs) > 1 else refs[0]
    return call


def _element(dtype) -> int:
    return {np.dtype(np.float32): rt.HalElementType.FLOAT_32,
            np.dtype(np.float64): rt.HalElementType.FLOAT_64,
            np.dtype(np.complex64): rt.HalElementType.COMPLEX_64,
            np.dtype(np.complex128): rt.HalElementType.COMPLEX_128,
            np.dtype(np.int32): rt.HalElementType.SINT_32}[np.dtype(dtype)]


def take_error() -> Exception | None:
    """The error of the last host function that failed on this thread (then forgotten)."""
    error, _FAILED.error = getattr(_FAILED, "error", None), None
    return error


def create_lapack_module(device):
    """The `shlo_lapack` VM module serving every routine of core/lapack_abi on `device`."""
    iface = rt.PyModuleInterface(lapack_abi.MODULE, lambda _: None)
    for routine in lapack_abi.ROUTINES:
        for prefix in _DTYPES:
            iface.export(lapack_abi.function_name(routine, prefix),
                         lapack_abi.calling_convention(routine),
                         _function(device, routine, prefix))
    return iface.create()


def linalg_as_stablehlo(target="cpu"):
    """`target` (a name or a Target) with jax's LAPACK calls compiled as StableHLO instead of
    host calls (shlo-expand-custom-calls{lapack=stablehlo}): a .vmfb that runs without shlo's
    runtime (iree-run-module), slower."""
    import dataclasses

    from ..pipelines.targets import get_target
    target = get_target(target)
    options = tuple(o for o in target.kind.pass_options if o[0] != "shlo-expand-custom-calls")
    kind = dataclasses.replace(target.kind, pass_options=options + (
        ("shlo-expand-custom-calls", "lapack=stablehlo"),))
    return dataclasses.replace(target, kind=kind)
