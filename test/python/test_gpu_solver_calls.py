"""JAX's linear algebra as exported for CUDA and ROCm: cuSOLVER/hipSOLVER/cuSPARSE custom calls
decomposed by shlo.passes.custom_calls.gpu_solver_calls, compiled for the CPU.

The oracles are jax's stored back-compat modules (their text, inputs and the outputs the GPUs
gave): each stored entry compiles once and runs its stored inputs, and, where the module takes
inputs, random ones against numpy/scipy (LAPACK). Eigenvectors are unique only up to phase, so
eigh is checked by what defines it against the matrix the stored outputs describe. A few
hand-written modules cover what jax's stored ones leave out: the upper triangle, out-of-range
pivots, batched tall LU."""
import importlib

import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack

import shlo

DATA = "jax._src.internal_test_util.export_back_compat_test_data"
MODULES = ["cuda_cholesky_solver_potrf", "rocm_cholesky_solver_potrf", "cuda_lu_cusolver_getrf",
           "rocm_lu_rocsolver_getrf", "cuda_lu_pivots_to_permutation",
           "rocm_lu_pivots_to_permutation", "cuda_qr_cusolver_geqrf", "rocm_qr_hipsolver_geqrf",
           "cuda_eigh_cusolver_syev", "rocm_eigh_hipsolver_syev", "gpu_eigh_solver_syev",
           "cuda_tridiagonal_cusolver_sytrd", "rocm_tridiagonal_hipsolver_sytrd",
           "cuda_tridiagonal_solve"]
RNG = np.random.default_rng(0)


# ROCm's modules for the calls whose CUDA modules run in all four dtypes: the same
# decompositions on the same shapes, so two dtypes of them (a compile costs seconds)
SAME_AS_CUDA = {"rocm_cholesky_solver_potrf", "rocm_lu_rocsolver_getrf",
                "rocm_qr_hipsolver_geqrf", "gpu_eigh_solver_syev",
                "rocm_tridiagonal_hipsolver_sytrd"}


def _entries():
    """(module, key, entry) of the stored module texts in MODULES."""
    out = []
    for name in MODULES:
        module = importlib.import_module(f"{DATA}.{name}")
        for attr in sorted(a for a in dir(module) if a.startswith("data_")):
            data = getattr(module, attr)
            if "mlir_module_text" in data:
                out.append((name, attr, data))
                continue
            out += [(name, f"{attr}[{key}]", entry) for key, entry in data.items()
                    if name not in SAME_AS_CUDA or key in ("f32", "c128")]
    return out


ENTRIES = _entries()


def _compile(ctx, text):
    return shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")


def _run(exe, *args):
    got = exe(*args)
    return [np.asarray(g) for g in (got if isinstance(got, (list, tuple)) else [got])]


def _tolerance(dtype) -> float:
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def _close(got, want):
    """got == want to the precision of want's type, relative to want's largest entry."""
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
        return
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=4 * _tolerance(want.dtype) * scale)


def _check_eigh(got, want):
    """(v, w): w as stored; v the orthonormal eigenvectors of a = V diag(w) V^H."""
    (v, w), (v0, w0) = got, want
    _close(w, w0)
    a = (v0 * w0.astype(v0.dtype)) @ v0.conj().T
    n, scale = a.shape[-1], max(float(np.max(np.abs(w0))), 1.0)
    tol = _tolerance(v0.dtype)
    np.testing.assert_allclose(a @ v, v * w.astype(v.dtype), rtol=0, atol=tol * scale)
    np.testing.assert_allclose(v.conj().T @ v, np.eye(n), rtol=0, atol=tol)


def _random_spd(shape, dtype):
    x = RNG.standard_normal(shape) + (1j * RNG.standard_normal(shape)
                                      if np.dtype(dtype).kind == "c" else 0)
    return (x @ x.conj().T + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _check_cholesky_random(exe, x):
    a = _random_spd(x.shape, x.dtype)
    (got,) = _run(exe, a)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    _close(got, np.linalg.cholesky(a.astype(wide)).astype(a.dtype))


def _tridiagonal(d, e):
    return np.diag(d) + np.diag(e, -1) + np.diag(e, 1)


def _check_sytrd_random(exe, x):
    """The stored module (jax's tridiagonal, lower) on a random Hermitian batch: LAPACK's
    ?sytrd/?hetrd (scipy), and T's eigenvalues are A's."""
    a = _random_spd(x.shape[-2:], x.dtype)[None] - RNG.standard_normal(x.shape).astype(x.dtype)
    a = (a + np.swapaxes(a, -1, -2).conj()) / 2
    got = _run(exe, a)
    name = ("sytrd" if x.dtype.kind == "f" else "hetrd")
    fn = scipy.linalg.lapack.get_lapack_funcs(name, (a[0],))
    for b in range(a.shape[0]):
        arr, d, e, tau, info = fn(a[b], lower=1)
        assert info == 0
        for g, w in zip(got, (arr, d, e, tau)):
            _close(g[b], w.astype(g.dtype))
        np.testing.assert_allclose(np.linalg.eigvalsh(_tridiagonal(got[1][b], got[2][b])),
                                   np.linalg.eigvalsh(a[b]), rtol=0,
                                   atol=100 * _tolerance(x.dtype) * np.abs(a[b]).max())


def _check_gtsv_random(exe, dl, d, du, b):
    n = d.shape[-1]
    dl, du = RNG.standard_normal(n).astype(d.dtype), RNG.standard_normal(n).astype(d.dtype)
    d = (RNG.standard_normal(n) + 4).astype(d.dtype)
    dl[0] = du[-1] = 0
    b = RNG.standard_normal(b.shape).astype(b.dtype)
    (got,) = _run(exe, dl, d, du, b)
    a = np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1)
    _close(got, np.linalg.solve(a.astype(np.float64), b).astype(b.dtype))


RANDOM = {"cholesky_solver_potrf": _check_cholesky_random,
          "tridiagonal_cusolver_sytrd": _check_sytrd_random,
          "tridiagonal_hipsolver_sytrd": _check_sytrd_random,
          "tridiagonal_solve": _check_gtsv_random}


@pytest.mark.parametrize("name, key, entry", ENTRIES,
                         ids=[f"{name}-{key}" for name, key, _ in ENTRIES])
def test_stored_gpu_module(ctx, name, key, entry):
    exe = _compile(ctx, entry["mlir_module_text"])
    inputs = [np.asarray(x) for x in entry["inputs"]]
    got = _run(exe, *inputs)
    want = [np.asarray(w) for w in entry["expected_outputs"]]
    if "eigh" in name:
        _check_eigh(got, want)
    else:
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
    check = RANDOM.get(name.split("_", 1)[1])
    if check is not None:
        check(exe, *inputs)


def _module(target, config, operands, results):
    """A module whose main calls `target` on its arguments and returns the call's results."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operands))
    names = ", ".join(f"%a{i}" for i in range(len(operands)))
    many = len(results) > 1
    outs = ", ".join(f"%r#{i}" for i in range(len(results))) if many else "%r"
    return (f"func.func @main({args}) -> ({', '.join(results)}) {{\n"
            f"  %r{f':{len(results)}' if many else ''} = stablehlo.custom_call @{target}({names}) "
            f"{{{config}}} : "
            f"({', '.join(operands)}) -> ({', '.join(results)})\n"
            f"  return {outs} : {', '.join(results)}\n}}\n")


def _lu_permutation(pivots, m):
    perm = np.broadcast_to(np.arange(m, dtype=np.int32), pivots.shape[:-1] + (m,)).copy()
    for index in np.ndindex(pivots.shape[:-1]):
        for i, j in enumerate(pivots[index]):
            if 0 <= j < m:
                perm[index][[i, j]] = perm[index][[j, i]]
    return perm


def test_pivots_to_permutation_out_of_range(ctx):
    text = _module("cu_lu_pivots_to_permutation", "mhlo.backend_config = {}",
                   ["tensor<2x3x4xi32>"], ["tensor<2x3x8xi32>"])
    exe = _compile(ctx, text)
    pivots = RNG.integers(-2, 10, (2, 3, 4)).astype(np.int32)     # some outside 0 .. 7
    pivots[0, 0] = [3, 7, 2, 3]
    (got,) = _run(exe, pivots)
    np.testing.assert_array_equal(got, _lu_permutation(pivots, 8))


def test_getrf_batched_tall(ctx):
    text = _module("hipsolver_getrf_ffi", "mhlo.backend_config = {}", ["tensor<2x5x3xf64>"],
                   ["tensor<2x5x3xf64>", "tensor<2x3xi32>", "tensor<2xi32>"])
    a = RNG.standard_normal((2, 5, 3))
    a[1, :, 1] = 0                                  # a zero pivot: info 2, as LAPACK
    lu, ipiv, info = _run(_compile(ctx, text), a)
    for b in range(2):
        lu0, piv0 = scipy.linalg.lu_factor(a[b], check_finite=False)
        _close(lu[b], lu0)
        np.testing.assert_array_equal(ipiv[b], piv0 + 1)
    np.testing.assert_array_equal(info, [0, 2])


def test_potrf_upper(ctx):
    text = _module("cusolver_potrf_ffi", "mhlo.backend_config = {lower = false}",
                   ["tensor<5x5xcomplex<f64>>"], ["tensor<5x5xcomplex<f64>>", "tensor<i32>"])
    a = _random_spd((5, 5), np.complex128)
    a = np.triu(a) + np.tril(RNG.standard_normal((5, 5)), -1)  # the lower triangle: not read
    factor, info = _run(_compile(ctx, text), a)
    upper = np.linalg.cholesky(np.triu(a) + np.triu(a, 1).conj().T).conj().T
    _close(factor, np.triu(upper) + np.tril(a, -1))
    assert info == 0


def test_syevd_upper(ctx):
    text = _module("cusolver_syevd_ffi", "mhlo.backend_config = {algorithm = 2 : ui8, "
                   "lower = false}", ["tensor<5x5xf64>"],
                   ["tensor<5x5xf64>", "tensor<5xf64>", "tensor<i32>"])
    a = RNG.standard_normal((5, 5))
    v, w, info = _run(_compile(ctx, text), a)
    sym = np.triu(a) + np.triu(a, 1).T
    _close(w, np.linalg.eigvalsh(sym))
    np.testing.assert_allclose(sym @ v, v * w, atol=1e-12 * np.abs(sym).max() * 100)
    assert info == 0


def test_hipsolver_legacy_syevd_unknown_fill_mode(ctx):
    text = _module("hipsolver_syevd", 'api_version = 2 : i32, backend_config = '
                   '"\\00\\00\\00\\00\\07\\00\\00\\00"', ["tensor<4x4xf32>"],
                   ["tensor<4x4xf32>", "tensor<4xf32>", "tensor<i32>", "tensor<8xf32>"])
    with pytest.raises(shlo.Error, match="@hipsolver_syevd: fill mode 7 in its descriptor"):
        _compile(ctx, text)
