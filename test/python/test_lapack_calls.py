"""JAX's linear algebra as lowered for the CPU: LAPACK custom calls (potrf, trsm, getrf, geqrf,
orgqr/ungqr; syevd/heevd by shlo.passes.custom_calls.lapack.syevd, gesdd by shlo.passes.custom_calls.lapack.gesdd)
decomposed by shlo.passes.custom_calls.lapack.ffi_calls, in modules whose custom calls carry Shardy
attributes (shlo.shardy drops them). jax.jit on the CPU is the oracle; CPU and Vulkan."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack

import shlo
from conftest import cases_on, vulkan_or_skip
from shlo.runtime.lapack_host import linalg_as_stablehlo

# These tests check the StableHLO decompositions (Vulkan's and CUDA's, and the cpu's with
# lapack=stablehlo); test_lapack_host_calls checks the cpu default, LAPACK on the host.
CPU = linalg_as_stablehlo("cpu")


def _on(target: str):
    return CPU if target == "cpu" else target

RNG = np.random.default_rng(0)


def _C(*shape, dtype=np.complex64):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)


_M = RNG.standard_normal((5, 5)).astype(np.float32)
SPD = _M @ _M.T + 5 * np.eye(5, dtype=np.float32)
B = RNG.standard_normal((5, 3)).astype(np.float32)

CASES = {
    "cholesky": (jnp.linalg.cholesky, [SPD]),
    "cholesky_batched": (jnp.linalg.cholesky, [np.stack([SPD, 2 * SPD])]),
    "cholesky_not_positive_definite": (jnp.linalg.cholesky, [-SPD]),      # NaNs, as jax
    "solve_lower": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
                    [np.tril(SPD), B]),
    "solve_upper_transposed": (lambda a, b: jax.scipy.linalg.solve_triangular(
        a, b, lower=False, trans=1), [np.triu(SPD), B]),
    "solve_unit_diagonal": (lambda a, b: jax.scipy.linalg.solve_triangular(
        a, b, lower=True, unit_diagonal=True), [np.tril(SPD), B]),
    "cho_solve": (lambda a, b: jax.scipy.linalg.cho_solve(
        jax.scipy.linalg.cho_factor(a, lower=True), b), [SPD, B]),
    "solve": (jnp.linalg.solve, [_M, B]),
    "inv": (jnp.linalg.inv, [_M]),
    "det": (jnp.linalg.det, [_M]),
    "det_singular": (jnp.linalg.det, [_M * (np.arange(5) != 2)]),          # a zero column
    "lu_permutation": (lambda a: jax.scipy.linalg.lu(a)[0], [_M]),
    "lu_factor_batched": (lambda a: jax.scipy.linalg.lu_factor(a)[0], [np.stack([_M, 2 * _M.T])]),
    "lu_pivots": (lambda a: jax.scipy.linalg.lu_factor(a)[1], [_M]),
    "lu_tall": (lambda a: jax.scipy.linalg.lu_factor(a)[0],
                [RNG.standard_normal((6, 4)).astype(np.float32)]),
    "lu_wide": (lambda a: jax.scipy.linalg.lu_factor(a)[0],
                [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "qr_q": (lambda a: jnp.linalg.qr(a)[0], [RNG.standard_normal((6, 3)).astype(np.float32)]),
    "qr_r": (lambda a: jnp.linalg.qr(a)[1], [RNG.standard_normal((6, 3)).astype(np.float32)]),
    "qr_wide_r": (lambda a: jnp.linalg.qr(a)[1], [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "qr_complete_batched": (lambda a: jnp.linalg.qr(a, mode="complete")[0],
                            [RNG.standard_normal((2, 5, 3)).astype(np.float32)]),
    "qr_zero_column": (lambda a: jnp.linalg.qr(a)[1], [_M * (np.arange(5) != 1)]),
    # complex QR (cgeqrf + cungqr): Householder reflectors with complex taus, as LAPACK's
    "qr_complex_q": (lambda a: jnp.linalg.qr(a)[0], [_C(6, 4)]),
    "qr_complex_r_wide": (lambda a: jnp.linalg.qr(a)[1], [_C(3, 5)]),
    "qr_complex_complete_batched": (lambda a: jnp.linalg.qr(a, mode="complete")[0],
                                    [_C(2, 5, 3)]),
    # a real alpha with a zero column below it: tau = 0, as LAPACK
    "qr_complex_zero_below": (lambda a: jnp.linalg.qr(a)[1],
                              [np.triu(_C(4, 4)).real.astype(np.complex64)]),
    "cholesky_empty": (jnp.linalg.cholesky, [np.zeros((3, 0, 0), np.float32)]),
    "solve_triangular_empty": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
                               [np.zeros((0, 0), np.float32), np.zeros((0, 2), np.float32)]),
}


@pytest.mark.parametrize("name, target", [(name, target) for target in ("cpu", "vulkan")
                                          for name in cases_on(target, CASES)])
def test_jax_linalg_lowered_for_the_cpu(ctx, target, name):
    if target == "vulkan":
        vulkan_or_skip()
    fn, args = CASES[name]
    text = jax.jit(fn).lower(*args).as_text()
    assert "lapack_" in text and "sdy." in text           # what this test is about
    got = np.asarray(shlo.compile(shlo.parse_module(text, context=ctx), target=_on(target))(*args))
    np.testing.assert_allclose(got, np.asarray(jax.jit(fn)(*args)), rtol=1e-4, atol=1e-4)


# eigh: (matrix, UPLO). Eigenvectors are unique up to sign (and rotations within a repeated
# eigenvalue), so the eigenvalues are compared with XLA's and the vectors by what defines
# them: a = V diag(w) V^T for the symmetric matrix of the UPLO triangle, V^T V = I.
_S = RNG.standard_normal((6, 6))


def _stalling_batch() -> np.ndarray:
    rng = np.random.default_rng(0)
    rng.standard_normal((5, 5)), rng.standard_normal((5, 5))
    return (rng.standard_normal((2, 20, 20)) + 1j * rng.standard_normal((2, 20, 20))).astype(
        np.complex64)


EIGH = {
    "eigh_f32": (SPD, "L"),
    "eigh_f64_odd_size_upper": (np.triu(_S + _S.T) + np.tril(RNG.standard_normal((6, 6)), -1),
                                "U"),
    "eigh_batched": (np.stack([_M + _M.T, np.diag([3, 1, 2, 1, 5]).astype(np.float32)]), "L"),
    "eigh_repeated_eigenvalues": (np.eye(4, dtype=np.float32) * 2, "L"),
    "eigh_1x1": (np.array([[-4.0]], np.float32), "L"),
    "eigh_7x7_odd": ((lambda a: (a + a.T).astype(np.float32))(RNG.standard_normal((7, 7))), "L"),
    # Hermitian (cheevd/zheevd): complex Jacobi rotations; the diagonal's imaginary parts are
    # not read
    "eigh_complex64": (_C(5, 5), "L"),
    "eigh_complex128_upper_odd": (_C(7, 7, dtype=np.complex128), "U"),
    "eigh_complex_repeated_eigenvalues": (np.eye(4, dtype=np.complex64) * 3, "L"),
    # a batch that never met the old stopping test (off-diagonal mass as total - diagonal,
    # rounding noise) and ran all 40 sweeps, whose rotations' phases from IREE's complex
    # division (modulus not 1 for tiny entries) moved the eigenvalues by 0.8
    "eigh_complex64_batched_20": (_stalling_batch(), "L"),
}


@pytest.mark.parametrize("name, target", [(name, target) for target in ("cpu", "vulkan")
                                          for name in cases_on(target, EIGH)])
def test_jax_eigh_lowered_for_the_cpu(ctx, target, name):
    if target == "vulkan":
        vulkan_or_skip()
    a, uplo = EIGH[name]
    if target == "vulkan" and a.dtype in (np.float64, np.complex128):
        a = a.astype(np.float32 if a.dtype == np.float64 else np.complex64)
    fn = jax.jit(lambda x: jnp.linalg.eigh(x, UPLO=uplo, symmetrize_input=False))
    with jax.enable_x64(a.dtype in (np.float64, np.complex128)):
        text, want = fn.lower(a).as_text(), np.asarray(fn(a)[0])
    assert "syevd" in text or "heevd" in text
    w, v = shlo.compile(shlo.parse_module(text, context=ctx), target=_on(target))(a)
    tol = 1e-5 if a.dtype in (np.float32, np.complex64) else 1e-12
    scale = np.max(np.abs(a))
    assert w.dtype == want.dtype and v.dtype == a.dtype
    np.testing.assert_allclose(w, want, rtol=tol * 10, atol=tol * 10 * scale)
    n = a.shape[-1]
    strict = np.tril(a, -1) if uplo == "L" else np.triu(a, 1)
    hermitian = (strict + np.conj(np.swapaxes(strict, -1, -2))
                 + np.real(np.diagonal(a, axis1=-2, axis2=-1))[..., None] * np.eye(n))
    np.testing.assert_allclose(np.einsum("...ij,...j,...kj->...ik", v, w, np.conj(v)), hermitian,
                               atol=tol * 10 * scale)
    np.testing.assert_allclose(np.einsum("...ji,...jk->...ik", np.conj(v), v),
                               np.broadcast_to(np.eye(n), v.shape), atol=tol * 10)


def test_eigvalsh_computes_values_only(ctx):
    fn = jax.jit(jnp.linalg.eigvalsh)
    got = shlo.compile(shlo.parse_module(fn.lower(SPD).as_text(), context=ctx), target=CPU)(SPD)
    np.testing.assert_allclose(got, np.asarray(fn(SPD)), rtol=1e-5)


# svd: (matrix, full_matrices). Checked by s against XLA, a = u s vt and orthonormal u, vt
# (singular vectors are unique only up to sign and within repeated values).
_R = RNG.standard_normal((5, 2))
SVD = {
    "svd_tall_f32": (RNG.standard_normal((6, 4)).astype(np.float32), False),
    "svd_wide_f64_full": (RNG.standard_normal((3, 5)), True),
    "svd_batched_odd_full": (RNG.standard_normal((2, 5, 5)).astype(np.float32), True),
    # rank 2 of 3: a zero singular value, whose u column is an orthonormal completion
    "svd_rank_deficient_full": (np.concatenate([_R, _R.sum(1, keepdims=True)], 1), True),
    "svd_1x1": (np.array([[-3.0]], np.float32), False),
    # complex (cgesdd/zgesdd): complex rotations, u's columns given the phase of R's diagonal
    "svd_complex64_tall": (_C(7, 4), False),
    "svd_complex128_wide_full": (_C(3, 5, dtype=np.complex128), True),
    "svd_complex64_batched_full": (_C(2, 6, 6), True),
}


def _check_svd(a, full, u, s, vt, want_s):
    tol = 1e-5 if a.dtype in (np.float32, np.complex64) else 1e-12
    assert s.dtype == want_s.dtype and u.dtype == vt.dtype == a.dtype
    scale = np.max(np.abs(a))
    np.testing.assert_allclose(s, want_s, rtol=tol * 10, atol=tol * 10 * scale)
    assert np.all(np.diff(s, axis=-1) <= 0), "singular values must descend"
    k = min(a.shape[-2:])
    m, n = a.shape[-2:]
    assert u.shape[-2:] == (m, m if full else k) and vt.shape[-2:] == (n if full else k, n)
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vt[..., :k, :], a,
                               atol=tol * 10 * scale)
    for q in (np.conj(np.swapaxes(u, -1, -2)) @ u, vt @ np.conj(np.swapaxes(vt, -1, -2))):
        np.testing.assert_allclose(q, np.broadcast_to(np.eye(q.shape[-1]), q.shape),
                                   atol=tol * 10)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", list(SVD))
def test_jax_svd_lowered_for_the_cpu(ctx, target, name):
    if target == "vulkan":
        vulkan_or_skip()
        if name not in ("svd_tall_f32", "svd_rank_deficient_full", "svd_complex64_tall"):
            pytest.skip("three cases are enough on Vulkan (slow to compile)")
    a, full = SVD[name]
    if target == "vulkan" and a.dtype == np.float64:
        a = a.astype(np.float32)
    fn = jax.jit(lambda x: jnp.linalg.svd(x, full_matrices=full))
    with jax.enable_x64(a.dtype in (np.float64, np.complex128)):
        text, want_s = fn.lower(a).as_text(), np.asarray(fn(a)[1])
    assert "gesdd" in text
    u, s, vt = shlo.compile(shlo.parse_module(text, context=ctx), target=_on(target))(a)
    _check_svd(a, full, np.asarray(u), np.asarray(s), np.asarray(vt), want_s)


@pytest.mark.parametrize("name", ["svd_wide_f64_full", "svd_complex64_tall"])
def test_jax_svd_qr_algorithm(ctx, name):
    """lax.linalg.svd(algorithm=QR) lowers to lapack_?gesvd_ffi (same results as gesdd)."""
    a, full = SVD[name]
    fn = jax.jit(lambda x: jax.lax.linalg.svd(x, full_matrices=full,
                                              algorithm=jax.lax.linalg.SvdAlgorithm.QR))
    with jax.enable_x64(a.dtype in (np.float64, np.complex128)):
        text, want_s = fn.lower(a).as_text(), np.asarray(fn(a)[1])
    assert "gesvd_ffi" in text
    u, s, vt = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(a)
    _check_svd(a, full, np.asarray(u), np.asarray(s), np.asarray(vt), want_s)


@pytest.mark.parametrize("dtype, shape", [(np.float32, (6, 4)), (np.float64, (4, 6)),
                                          (np.complex64, (2, 5, 3))])
def test_pivoted_qr_lowered_for_the_cpu(ctx, dtype, shape):
    """lapack_?geqp3_ffi (shlo.passes.custom_calls.lapack.geqp3): scipy's (LAPACK's) column order, |R|
    and Q R = A P with orthonormal Q."""
    a = _matrices(dtype, shape, 43)
    fn = jax.jit(lambda m: jax.lax.linalg.qr(m, pivoting=True, full_matrices=False))
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = fn.lower(a).as_text()
    assert "geqp3" in text
    q, r, p = (np.asarray(x) for x in shlo.compile(shlo.parse_module(text, context=ctx),
                                                    target=CPU)(a))
    tol = 1e-13 if np.finfo(dtype).bits == 64 else 2e-6
    for k in np.ndindex(shape[:-2]):
        want_q, want_r, want_p = scipy.linalg.qr(a[k], pivoting=True, mode="economic")
        np.testing.assert_array_equal(p[k], want_p)
        np.testing.assert_allclose(np.abs(r[k]), np.abs(want_r), atol=tol * 10)
        np.testing.assert_allclose(q[k] @ r[k], a[k][:, p[k]], atol=tol * 10)
        np.testing.assert_allclose(np.conj(q[k].T) @ q[k], np.eye(q.shape[-1]), atol=tol * 10)


GEQP3 = """
func.func @main(%a: tensor<5x5xf64>, %jpvt: tensor<5xi32>) -> (tensor<5x5xf64>, tensor<5xi32>,
                                                             tensor<5xf64>) {
  %0:3 = stablehlo.custom_call @lapack_dgeqp3_ffi(%a, %jpvt) {mhlo.backend_config = {}}
      : (tensor<5x5xf64>, tensor<5xi32>) -> (tensor<5x5xf64>, tensor<5xi32>, tensor<5xf64>)
  return %0#0, %0#1, %0#2 : tensor<5x5xf64>, tensor<5xi32>, tensor<5xf64>
}"""


def test_pivoted_qr_keeps_fixed_columns_first(ctx):
    """geqp3 with non-zero jpvt entries: those columns come first (LAPACK moves column j to
    the next fixed position), unpivoted, then the rest by largest remaining norm; the oracle
    builds that order from scipy's QR of the fixed block and pivoted QR of the remainder."""
    a = _matrices(np.float64, (5, 5), 47)
    jpvt = np.array([0, 0, 1, 0, 1], np.int32)
    qr, got_p, _ = (np.asarray(x) for x in shlo.compile(shlo.parse_module(GEQP3, context=ctx),
                                                         target=CPU)(a, jpvt))
    order = list(range(5))
    count = 0
    for j in range(5):                                     # LAPACK's swaps
        if jpvt[j]:
            order[j], order[count] = order[count], order[j]
            count += 1
    fixed, rest = a[:, order[:count]], a[:, order[count:]]
    q1, _ = np.linalg.qr(fixed, mode="complete")
    trailing = (q1.T @ rest)[count:]
    _, _, pivots = scipy.linalg.qr(trailing, pivoting=True)
    want_p = np.array(order[:count] + [order[count:][i] for i in pivots]) + 1
    np.testing.assert_array_equal(got_p, want_p)
    np.testing.assert_allclose(np.abs(np.triu(qr)), np.abs(np.linalg.qr(a[:, want_p - 1])[1]),
                               atol=1e-12)


@pytest.mark.parametrize("what", ["singular_values", "pinv", "matrix_rank", "norm2"])
def test_functions_built_on_svd_match_xla(ctx, what):
    fn = jax.jit({"singular_values": lambda x: jnp.linalg.svd(x, compute_uv=False),
                  "pinv": jnp.linalg.pinv, "matrix_rank": jnp.linalg.matrix_rank,
                  "norm2": lambda x: jnp.linalg.norm(x, ord=2)}[what])
    a = np.concatenate([_R, _R.sum(1, keepdims=True)], 1).astype(np.float32)   # rank 2
    text = fn.lower(a).as_text()
    got = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(a)
    np.testing.assert_allclose(got, np.asarray(fn(a)), rtol=1e-4, atol=1e-5)


def _tridiagonal(dl, d, du):
    n = d.shape[-1]
    a = np.zeros(d.shape + (n,), np.complex128)
    i = np.arange(n)
    a[..., i, i], a[..., i[1:], i[:-1]], a[..., i[:-1], i[1:]] = d, dl[..., 1:], du[..., :-1]
    return a


@pytest.mark.parametrize("dtype, shape, rhs", [(np.float32, (7,), 3), (np.float64, (2, 5), 2),
                                               (np.complex64, (40,), 1), (np.float32, (1,), 2)])
def test_tridiagonal_solve_lowered_for_the_cpu(ctx, dtype, shape, rhs):
    """lapack_?gtsv_ffi (shlo.passes.custom_calls.lapack.gtsv): a small diagonal makes the elimination
    swap rows; numpy's dense solve is the oracle."""
    from jax.lax.linalg import tridiagonal_solve
    rng = np.random.default_rng(5)

    def draw(*s):
        x = rng.standard_normal(s)
        return (x + 1j * rng.standard_normal(s) if np.dtype(dtype).kind == "c" else x).astype(dtype)
    dl, d, du, b = draw(*shape), draw(*shape) * 0.3, draw(*shape), draw(*shape, rhs)
    dl[..., 0] = du[..., -1] = 0
    fn = jax.jit(tridiagonal_solve)
    with jax.enable_x64(dtype == np.float64):
        text = fn.lower(dl, d, du, b).as_text()
    assert "gtsv" in text
    got = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(dl, d, du, b)
    want = np.linalg.solve(_tridiagonal(dl, d, du), b)
    tol = 1e-12 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


def test_singular_tridiagonal_solve_gives_nans_as_jax(ctx):
    from jax.lax.linalg import tridiagonal_solve
    dl, d, du = (np.array(v, np.float32) for v in ([0, 1, 1], [0, 0, 0], [0, 0, 0]))
    b = np.ones((3, 1), np.float32)
    text = jax.jit(tridiagonal_solve).lower(dl, d, du, b).as_text()
    got = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(dl, d, du, b)
    assert np.isnan(got).all()


@pytest.mark.parametrize("dtype, shape", [(np.float32, (6, 6)), (np.float64, (2, 5, 5)),
                                          (np.complex64, (7, 7)), (np.complex128, (3, 4, 4)),
                                          (np.float32, (1, 1))])
def test_hessenberg_lowered_for_the_cpu(ctx, dtype, shape):
    """lapack_?gehrd_ffi (shlo.passes.custom_calls.lapack.gehrd), with Q from orgqr/ungqr: scipy's
    hessenberg (LAPACK's gehrd + orghr) is the oracle, elementwise, and Q H Q^H = A."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    fn = jax.jit(jnp.vectorize(lambda m: jax.scipy.linalg.hessenberg(m, calc_q=True),
                               signature="(n,n)->(n,n),(n,n)"))
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = fn.lower(a).as_text()
    assert "gehrd" in text
    h, q = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(a)
    tol = 1e-12 if np.finfo(dtype).bits == 64 else 2e-5
    flat = a.reshape((-1,) + shape[-2:])
    for k, (hk, qk) in enumerate(zip(np.asarray(h).reshape(flat.shape),
                                     np.asarray(q).reshape(flat.shape))):
        want_h, want_q = scipy.linalg.hessenberg(flat[k].astype(np.result_type(dtype, np.float64)),
                                                 calc_q=True)
        np.testing.assert_allclose(hk, want_h, rtol=tol, atol=tol * 10)
        np.testing.assert_allclose(qk, want_q, rtol=tol, atol=tol * 10)
        np.testing.assert_allclose(qk @ hk @ qk.conj().T, flat[k], rtol=tol, atol=tol * 10)


def _matrices(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _closest(values, reference):
    """For each of `values` [..., n], the distance to the nearest of `reference` [..., n]."""
    return np.abs(values[..., :, None] - reference[..., None, :]).min(-1)


@pytest.mark.parametrize("dtype, shape", [(np.float32, (6, 6)), (np.float64, (3, 7, 7)),
                                          (np.complex64, (2, 5, 5)), (np.complex128, (9, 9)),
                                          (np.float32, (1, 1)), (np.float32, (3, 2, 2)),
                                          (np.complex128, (2, 2))])
@pytest.mark.slow
def test_eig_lowered_for_the_cpu(ctx, dtype, shape):
    """lapack_?geev_ffi (shlo.passes.custom_calls.lapack.geev) with left and right eigenvectors: numpy's
    eigenvalues (each one's nearest), A v = w v and u^H A = w u^H, unit columns whose largest
    component is real and positive, and numpy's right eigenvectors up to a phase."""
    a = _matrices(dtype, shape, 11)
    fn = jax.jit(lambda m: jax.lax.linalg.eig(m, compute_left_eigenvectors=True))
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = fn.lower(a).as_text()
    assert "geev" in text
    w, left, right = (np.asarray(x) for x in shlo.compile(
        shlo.parse_module(text, context=ctx), target=CPU)(a))
    tol = 1e-10 if np.finfo(dtype).bits == 64 else 2e-4
    want_w, want_v = np.linalg.eig(a.astype(np.complex128))
    scale = np.abs(a).max()
    assert _closest(w, want_w).max() <= tol * scale
    assert _closest(want_w, w).max() <= tol * scale
    ac = a.astype(np.complex128)
    np.testing.assert_allclose(ac @ right, right * w[..., None, :], atol=tol * scale)
    np.testing.assert_allclose(np.conj(np.swapaxes(left, -1, -2)) @ ac,
                               w[..., :, None] * np.conj(np.swapaxes(left, -1, -2)),
                               atol=tol * scale)
    for v in (left, right):
        np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=tol)
        largest = np.take_along_axis(v, np.abs(v).argmax(-2)[..., None, :], -2)
        np.testing.assert_allclose(largest.imag, 0, atol=tol)
        assert (largest.real > 0).all()
    if np.dtype(dtype).kind == "f":       # dgeev's real Schur form: XLA's (LAPACK's) order,
        with jax.enable_x64(np.finfo(dtype).bits == 64):          # real eigenvalues exact
            want = np.asarray(fn(a)[0])
        np.testing.assert_allclose(w, want, atol=tol * scale)
        np.testing.assert_array_equal(w.imag == 0, want.imag == 0)
    # numpy's right eigenvector of the same eigenvalue: the same up to a phase
    order = np.abs(w[..., :, None] - want_w[..., None, :]).argmin(-1)
    matched = np.take_along_axis(want_v, order[..., None, :], -1)
    overlap = np.abs(np.sum(np.conj(matched) * right, axis=-2))
    np.testing.assert_allclose(overlap, 1, atol=tol * 10)


@pytest.mark.slow
def test_eigvals_of_a_defective_and_a_diagonal_matrix(ctx):
    """Repeated eigenvalues: a Jordan block (eigenvalue 2, defective) and a diagonal matrix
    (already triangular: no QR sweep at all)."""
    jordan = np.array([[2, 1, 0], [0, 2, 1], [0, 0, 2]], np.float64)
    diagonal = np.diag([3.0, -1.0, 0.5])
    a = np.stack([jordan, diagonal])
    fn = jax.jit(jnp.linalg.eigvals)
    with jax.enable_x64(True):
        text = fn.lower(a).as_text()
    w = np.asarray(shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(a))
    np.testing.assert_allclose(w[0], 2, atol=1e-4)          # a defective eigenvalue: eps^(1/3)
    np.testing.assert_allclose(np.sort(w[1].real), [-1, 0.5, 3], atol=1e-14)
    np.testing.assert_allclose(w[1].imag, 0, atol=1e-14)


@pytest.mark.parametrize("dtype, shape", [(np.complex64, (6, 6)), (np.complex128, (2, 5, 5))])
def test_complex_schur_lowered_for_the_cpu(ctx, dtype, shape):
    """lapack_?gees_ffi of a complex matrix: T upper triangular, Z unitary, Z T Z^H = A, and
    T's diagonal numpy's eigenvalues."""
    a = _matrices(dtype, shape, 13)
    fn = jax.jit(lambda m: jax.lax.linalg.schur(m, compute_schur_vectors=True))
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = fn.lower(a).as_text()
    assert "gees" in text
    t, z = (np.asarray(x) for x in shlo.compile(shlo.parse_module(text, context=ctx),
                                                 target=CPU)(a))
    tol = 1e-10 if np.finfo(dtype).bits == 64 else 2e-4
    n = shape[-1]
    np.testing.assert_array_equal(t[..., np.tril_indices(n, -1)[0], np.tril_indices(n, -1)[1]], 0)
    zh = np.conj(np.swapaxes(z, -1, -2))
    np.testing.assert_allclose(zh @ z, np.broadcast_to(np.eye(n), z.shape), atol=tol)
    np.testing.assert_allclose(z @ t @ zh, a, atol=tol * np.abs(a).max())
    diagonal = np.diagonal(t, axis1=-2, axis2=-1)
    assert _closest(diagonal, np.linalg.eigvals(a.astype(np.complex128))).max() <= tol * 10


def _real_schur_checks(a, t, z, tol):
    """Z orthogonal, Z T Z^T = A, T quasi-triangular with dlanv2's standard 2x2 blocks
    [[x, b], [c, x]], b c < 0, apart from one another."""
    n = a.shape[-1]
    np.testing.assert_allclose(np.swapaxes(z, -1, -2) @ z, np.broadcast_to(np.eye(n), z.shape),
                               atol=tol)
    np.testing.assert_allclose(z @ t @ np.swapaxes(z, -1, -2), a, atol=tol * np.abs(a).max())
    np.testing.assert_array_equal(np.tril(t, -2), 0)
    for m in t.reshape((-1, n, n)):
        blocks = np.nonzero(np.diagonal(m, -1))[0]
        assert (np.diff(blocks) > 1).all()
        for k in blocks:
            assert m[k, k] == m[k + 1, k + 1] and m[k, k + 1] * m[k + 1, k] < 0


@pytest.mark.parametrize("target, dtype, shape", [
    ("cpu", np.float32, (7, 7)), ("cpu", np.float64, (4, 6, 6)),
    # slow: 66 s wall under load (fences._moves_dimensions' 6.2M-path walk, 120 CPU s, is
    # memoized since; the rest is lavapipe's compile and run): docs/performance.md
    pytest.param("vulkan", np.float32, (2, 6, 6), marks=pytest.mark.slow)])
def test_real_schur_lowered_for_the_cpu(ctx, target, dtype, shape):
    """lapack_?gees_ffi of a real matrix (shlo.passes.custom_calls.lapack.gees, dlahqr's double-shift QR):
    the properties of a real Schur form, and scipy's T up to the signs of Z's columns."""
    if target == "vulkan":
        vulkan_or_skip()
    a = _matrices(dtype, shape, 19)
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = jax.jit(jax.scipy.linalg.schur).lower(a).as_text()
    assert "gees" in text
    t, z = (np.asarray(x) for x in shlo.compile(shlo.parse_module(text, context=ctx),
                                                 target=_on(target))(a))
    tol = 1e-12 if np.finfo(dtype).bits == 64 else 2e-5
    _real_schur_checks(a, t, z, 10 * tol)
    n = shape[-1]
    for tk, zk, ak in zip(t.reshape((-1, n, n)), z.reshape((-1, n, n)), a.reshape((-1, n, n))):
        if dtype == np.float32:
            # which eigenvalue deflates first is down to rounding in f32 (on a Zen 5 VM this
            # 7 x 7 deflated 2.43 first, OpenBLAS's sgees third): the same eigenvalues
            got, want = np.linalg.eigvals(tk.astype(np.float64)), np.linalg.eigvals(ak)
            assert max(_closest(got, want).max(), _closest(want, got).max()) < 100 * tol
            continue
        want_t, want_z = scipy.linalg.schur(ak)               # dgees
        signs = np.sign(np.sum(want_z * zk, axis=0))
        np.testing.assert_allclose(signs[:, None] * tk * signs, want_t, atol=100 * tol)


@pytest.mark.slow
def test_real_schur_of_hard_matrices(ctx):
    """A batch of matrices that stall or trouble the QR iteration: a cyclic permutation (all
    eigenvalues of modulus 1: exceptional shifts), rotation blocks, a Jordan block, a
    companion matrix, a triangular, a symmetric and a zero matrix, entries over 12 orders of
    magnitude; the eigenvalues from T's diagonal and blocks against numpy's."""
    rng = np.random.default_rng(23)
    companion = np.diag(np.ones(5), -1)
    companion[0] = rng.standard_normal(6)
    s = rng.standard_normal((6, 6))
    a = np.stack([np.roll(np.eye(6), 1, 0), np.kron(np.eye(3), [[0, -1], [1, 0]]),
                  2 * np.eye(6) + np.eye(6, k=1), companion, np.triu(s), s + s.T,
                  np.zeros((6, 6)), s * np.logspace(-6, 6, 6)])
    with jax.enable_x64(True):
        text = jax.jit(jax.scipy.linalg.schur).lower(a).as_text()
    t, z = (np.asarray(x) for x in shlo.compile(shlo.parse_module(text, context=ctx),
                                                 target=CPU)(a))
    _real_schur_checks(a, t, z, 1e-12)
    for k, m in enumerate(t):
        w = np.diagonal(m).astype(complex)
        for i in np.nonzero(np.diagonal(m, -1))[0]:
            root = np.sqrt(abs(m[i, i + 1] * m[i + 1, i]))
            w[i] += 1j * root
            w[i + 1] -= 1j * root
        tol = 1e-4 if k == 2 else 1e-9 * np.abs(a[k]).max()    # a Jordan block: eps^(1/6)
        assert _closest(w, np.linalg.eigvals(a[k])).max() <= tol


GEES = """
func.func @main(%a: tensor<2x5x5xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xf64>, tensor<2x5xf64>,
                                           tensor<2x5xf64>, tensor<2xi32>, tensor<2xi32>) {
  %0:6 = stablehlo.custom_call @lapack_dgees_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8,
      sort = SORT : ui8}} : (tensor<2x5x5xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xf64>,
      tensor<2x5xf64>, tensor<2x5xf64>, tensor<2xi32>, tensor<2xi32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<2x5x5xf64>, tensor<2x5x5xf64>,
      tensor<2x5xf64>, tensor<2x5xf64>, tensor<2xi32>, tensor<2xi32>
}"""


@pytest.mark.slow
def test_real_gees_eigenvalues_sdim_and_info(ctx):
    """dgees' other results: wr + i wi numpy's eigenvalues in T's diagonal order (the pair of
    a block with + first, as dlanv2), sdim and info 0; a sorted form is a clear error."""
    a = _matrices(np.float64, (2, 5, 5), 29)
    t, z, wr, wi, sdim, info = (np.asarray(x) for x in shlo.compile(
        shlo.parse_module(GEES.replace("SORT", str(ord("N"))), context=ctx), target=CPU)(a))
    _real_schur_checks(a, t, z, 1e-12)
    np.testing.assert_array_equal(wr, np.diagonal(t, axis1=-2, axis2=-1))
    np.testing.assert_array_equal(sdim, 0)
    np.testing.assert_array_equal(info, 0)
    assert (wi != 0).any()
    for i in zip(*np.nonzero(wi > 0)):
        assert wi[i[0], i[1] + 1] == -wi[i]
    w = wr + 1j * wi
    assert _closest(w, np.linalg.eigvals(a)).max() <= 1e-12 * np.abs(a).max()
    assert _closest(np.linalg.eigvals(a), w).max() <= 1e-12 * np.abs(a).max()
    with pytest.raises(shlo.Error, match="lapack_dgees_ffi: sorted Schur forms are not"):
        shlo.compile(shlo.parse_module(GEES.replace("SORT", str(ord("S"))), context=ctx),
                     target=CPU, cache=False)


@pytest.mark.parametrize("dtype", ["f32", "f64", "c64", "c128"])
@pytest.mark.slow
def test_jax_stored_schur_modules(ctx, dtype):
    """jax's own back-compat modules for lapack_?gees_ffi (a 4x4 of rank 2): its stored T and
    Z up to the phases of Z's columns where they are unique (the two non-zero eigenvalues;
    the double zero's eigenspace has any basis)."""
    stored = pytest.importorskip("jax._src.internal_test_util.export_back_compat_test_data."
                                 "cpu_schur_lapack_gees").data_2024_11_29[dtype]
    a = np.asarray(stored["inputs"][0])
    t, z = (np.asarray(x) for x in shlo.compile(
        shlo.parse_module(stored["mlir_module_text"], context=ctx), target=CPU)(a))
    want_t, want_z = (np.asarray(x) for x in stored["expected_outputs"])
    tol = 1e-12 if dtype in ("f64", "c128") else 1e-5
    phases = np.sum(np.conj(want_z[:, :2]) * z[:, :2], axis=0)
    np.testing.assert_allclose(np.abs(phases), 1, atol=tol * 10)
    np.testing.assert_allclose(z[:, :2], want_z[:, :2] * phases, atol=tol * 10)
    np.testing.assert_allclose(t[:2, :2], np.conj(phases)[:, None] * want_t[:2, :2] * phases,
                               atol=tol * 100)
    np.testing.assert_allclose(np.diagonal(t), np.diagonal(want_t), atol=tol * 100)
    np.testing.assert_allclose(z @ t @ np.conj(z.T), a, atol=tol * 100)


SYTRD = {np.float32: "ssytrd", np.float64: "dsytrd", np.complex64: "chetrd",
         np.complex128: "zhetrd"}


@pytest.mark.parametrize("dtype, lower, shape", [
    (np.float32, True, (2, 6, 6)), (np.float64, False, (2, 6, 6)),
    (np.complex64, False, (2, 6, 6)), (np.complex128, True, (2, 6, 6)),
    (np.complex64, True, (1, 1))])
def test_tridiagonal_lowered_for_the_cpu(ctx, dtype, lower, shape):
    """lapack_?sytrd_ffi / ?hetrd (shlo.passes.custom_calls.lapack.sytrd): a', d, e and tau equal to
    LAPACK's own (scipy.linalg.lapack), both triangles, batched, and a 1x1; the triangle not
    named by uplo is ignored (the input is not symmetric) and comes back untouched."""
    x = _matrices(dtype, shape, 31 + lower)
    fn = jax.jit(lambda m: jax.lax.linalg.tridiagonal(m, lower=lower))
    lapack = getattr(scipy.linalg.lapack, SYTRD[dtype])
    tol = 1e-13 if np.finfo(dtype).bits == 64 else 1e-5
    with jax.enable_x64(np.finfo(dtype).bits == 64):
        text = fn.lower(x).as_text()
    assert "trd_ffi" in text
    got = [np.asarray(r) for r in shlo.compile(shlo.parse_module(text, context=ctx),
                                                target=CPU)(x)]
    members = [(x, got)] if x.ndim == 2 else [(x[k], [g[k] for g in got])
                                               for k in range(len(x))]
    for xk, gk in members:
        for g, w in zip(gk, lapack(xk, lower=int(lower))[:4]):
            np.testing.assert_allclose(g, w, atol=tol * 10)


@pytest.mark.parametrize("dtype", ["f32", "f64", "c64", "c128"])
def test_jax_stored_tridiagonal_modules(ctx, dtype):
    """jax's own back-compat modules for lapack_?sytrd_ffi / ?hetrd_ffi: its stored a', d, e
    and taus."""
    stored = pytest.importorskip("jax._src.internal_test_util.export_back_compat_test_data."
                                 "cpu_tridiagonal_lapack_sytrd_hetrd").data_2024_12_01[dtype]
    got = shlo.compile(shlo.parse_module(stored["mlir_module_text"], context=ctx),
                       target=CPU)(*[np.asarray(x) for x in stored["inputs"]])
    tol = 1e-12 if dtype in ("f64", "c128") else 2e-5
    for g, w in zip(got, stored["expected_outputs"]):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), atol=tol * 10)


@pytest.mark.slow
def test_sqrtm_through_the_complex_schur_form(ctx):
    """jax.scipy.linalg.sqrtm: the complex Schur form of a real matrix, then triangular
    solves; scipy's sqrtm is the oracle."""
    a = _matrices(np.float32, (5, 5), 17)
    a = a @ a.T + np.eye(5, dtype=np.float32)
    text = jax.jit(jax.scipy.linalg.sqrtm).lower(a).as_text()
    got = shlo.compile(shlo.parse_module(text, context=ctx), target=CPU)(a)
    np.testing.assert_allclose(got, scipy.linalg.sqrtm(a.astype(np.float64)), atol=2e-5)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("n", [16, 17, 24, 33, 64])
def test_lu_and_det_of_larger_matrices_match_scipy(ctx, n, target):
    """IREE 3.13 fused the pivot's sum in getrf's loop wrongly from 17 rows on on CPU
    (multipliers off by 2x), and Vulkan's reductions went wrong at 16, 24, 33 and 64 rows
    (shlo-legalize-vulkan-ops; svd's u from 16 rows on); the 5x5 cases above saw neither.
    scipy's LAPACK is the oracle."""
    if target == "vulkan":
        vulkan_or_skip()
    a = (np.random.default_rng(n).standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)
    fn = jax.jit(lambda a: (*jax.scipy.linalg.lu_factor(a), jnp.linalg.det(a),
                            jnp.linalg.qr(a)[1], *jnp.linalg.svd(a)))
    lu, piv, det, r, u, s, vt = shlo.compile(
        shlo.parse_module(fn.lower(a).as_text(), context=ctx), target=_on(target))(a)
    want_lu, want_piv = scipy.linalg.lu_factor(a.astype(np.float64))
    np.testing.assert_array_equal(piv, want_piv)
    np.testing.assert_allclose(lu, want_lu, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(det, np.linalg.det(a.astype(np.float64)), rtol=1e-3)
    want_r = scipy.linalg.qr(a.astype(np.float64), mode="r")[0]
    np.testing.assert_allclose(np.abs(r), np.abs(want_r), atol=1e-4)        # rows up to sign
    np.testing.assert_allclose(s, scipy.linalg.svdvals(a.astype(np.float64)), atol=1e-4)
    np.testing.assert_allclose((u * s) @ vt, a, atol=1e-4)
    np.testing.assert_allclose(u.T @ u, np.eye(n), atol=1e-4)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_eigh_and_svd_of_64_rows_are_as_accurate_as_lapack(ctx, target):
    """The Jacobi rotations, accumulated over a few sweeps of 63 steps, left eigh's values and
    svd's singular values about 90 eps off and their vectors orthonormal to about 100 eps
    (LAPACK: 2-10 eps); one Newton-Schulz step on the vectors and the values recomputed from
    the matrix itself bring both to LAPACK's (docs/iree_gaps.md, JAX's LAPACK calls). numpy's
    LAPACK in f64 is the oracle."""
    if target == "vulkan":
        vulkan_or_skip()
    rng = np.random.default_rng(64)
    g = rng.standard_normal((64, 64)) / 8
    spd = (g @ g.T + np.eye(64)).astype(np.float32)
    tall = rng.standard_normal((96, 64)).astype(np.float32)
    fn = jax.jit(lambda a, b: (*jnp.linalg.eigh(a), *jnp.linalg.svd(b, full_matrices=False)))
    w, v, u, s, vt = (np.asarray(x, np.float64) for x in shlo.compile(
        shlo.parse_module(fn.lower(spd, tall).as_text(), context=ctx), target=_on(target))(spd, tall))
    eps = float(np.finfo(np.float32).eps)
    a, b = spd.astype(np.float64), tall.astype(np.float64)
    want_w, want_s = np.linalg.eigvalsh(a), np.linalg.svd(b, compute_uv=False)
    assert np.abs(w - want_w).max() < 10 * eps * want_w.max()
    assert np.abs(a @ v - v * w).max() < 10 * eps * want_w.max()
    assert np.abs(v.T @ v - np.eye(64)).max() < 10 * eps
    assert np.abs(s - want_s).max() < 10 * eps * want_s[0]
    assert np.abs((u * s) @ vt - b).max() < 10 * eps * want_s[0]
    assert np.abs(vt @ vt.T - np.eye(64)).max() < 10 * eps
    assert np.abs(u.T @ u - np.eye(64)).max() < 10 * eps


@pytest.mark.every_case
@pytest.mark.parametrize("m", [2, 4, 6, 8, 64, 256])
def test_a_sweep_of_the_tournament_pairs_every_two_indices_once(m):
    """Each round pairs the indices at positions (2i, 2i + 1), then moves them by
    `seat_sources`: m - 1 rounds must meet every pair exactly once and restore the order."""
    from iree.compiler import ir
    from shlo.passes.custom_calls.lapack.syevd import Tournament
    with ir.Context():
        sources = Tournament(m, ir.F32Type.get()).seat_sources()
    assert sorted(sources) == list(range(m))
    order, met = np.arange(m), set()
    for _ in range(m - 1):
        met |= {frozenset(pair) for pair in order.reshape(-1, 2).tolist()}
        order = order[sources]
    assert len(met) == m * (m - 1) // 2
    assert order.tolist() == list(range(m))


def test_eigh_and_svd_of_256_rows_are_as_accurate_as_lapack():
    """At 256 rows the sweeps stop with the off-diagonal at m eps |A|, which left eigh's
    residual |A v - v w| at 90 eps; one sweep more squares it (about 5 eps; LAPACK 1-2).
    numpy's LAPACK in f64 is the oracle (cpu with lapack=stablehlo: Vulkan's and CUDA's
    decomposition, 65536 elements)."""
    rng = np.random.default_rng(256)
    g = rng.standard_normal((256, 256))
    sym = ((g + g.T) / 2).astype(np.float32)                   # indefinite
    tall = rng.standard_normal((320, 256)).astype(np.float32)
    fn = jax.jit(lambda a, b: (*jnp.linalg.eigh(a), *jnp.linalg.svd(b, full_matrices=False)))
    w, v, u, s, vt = (np.asarray(x, np.float64)
                      for x in shlo.compile(fn.lower(sym, tall).as_text(), target=CPU)(sym, tall))
    eps = float(np.finfo(np.float32).eps)
    a, b = sym.astype(np.float64), tall.astype(np.float64)
    want_w, want_s = np.linalg.eigvalsh(a), np.linalg.svd(b, compute_uv=False)
    norm = np.abs(want_w).max()
    assert np.abs(w - want_w).max() < 12 * eps * norm
    assert np.abs(a @ v - v * w).max() < 12 * eps * norm
    assert np.abs(v.T @ v - np.eye(256)).max() < 12 * eps
    assert np.abs(s - want_s).max() < 12 * eps * want_s[0]
    assert np.abs((u * s) @ vt - b).max() < 12 * eps * want_s[0]
    assert np.abs(vt @ vt.T - np.eye(256)).max() < 12 * eps
    assert np.abs(u.T @ u - np.eye(256)).max() < 12 * eps


def test_svd_of_a_wide_complex_matrix_on_the_cpu_decomposition():
    """A wide complex svd (decomposed through its adjoint) failed IREE's runtime on the cpu,
    "ref is null" in hal.buffer.subspan, while the Jacobi sweeps' convergence test ran in the
    loop's condition; it runs in the body now (`Tournament.sweeps`). numpy is the oracle."""
    rng = np.random.default_rng(35)
    for shape in [(3, 5), (4, 6)]:
        a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
        fn = jax.jit(lambda m: jnp.linalg.svd(m, full_matrices=False))
        u, s, vt = (np.asarray(x) for x in shlo.compile(fn.lower(a).as_text(), target=CPU)(a))
        np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose((u * s) @ vt, a, atol=1e-5)


@pytest.mark.parametrize("n", [16, 24, 64])
def test_solve_and_inverse_of_16_rows_or_more_on_the_cpu_decomposition(n):
    """jnp.linalg.solve and inv of 16 rows or more on the cpu with lapack=stablehlo: getrs'
    two substitution loops run 16 or 24 steps a trip (shlo-unroll-scan-loops) beside the
    pivots' permutation loop. With each copy's counter chained `((i + 1) + 1) ...`, IREE
    read every copy's index back and its timepoint analysis gave up ("failed to solve for
    timepoint coverage"). numpy in f64 is the oracle."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, 8)).astype(np.float32)
    fn = jax.jit(lambda a, b: (jnp.linalg.solve(a, b), jnp.linalg.inv(a)))
    x, inv = shlo.compile(fn.lower(a, b).as_text(), target=CPU)(a, b)
    a64 = a.astype(np.float64)
    scale = np.linalg.cond(a64) * np.finfo(np.float32).eps * 4
    np.testing.assert_allclose(x, np.linalg.solve(a64, b), atol=scale * np.abs(x).max())
    np.testing.assert_allclose(inv, np.linalg.inv(a64), atol=scale * np.abs(inv).max())


def test_training_step_through_eigh_and_svd_on_the_cpu_decomposition():
    """A training step through eigh and svd on x[64, 128] (shlo-fuzz --jax seed 11 program 89
    with those layers) failed every call on the cpu with lapack=stablehlo: "ref is null" in
    hal.buffer.subspan, with the Jacobi sweep loops' results behind shlo-barrier-loop-results'
    barrier. Those loops' first trip always runs (a count and a flag carried from true), so
    their results cannot be their operands and are no longer fenced. XLA in f64 is the oracle,
    as the fuzzer checks it."""
    from shlo.tools.fuzz import jax_programs
    program = jax_programs.random_program("11:89", ["eigh", "svd"], train=True)
    got = shlo.compile(program.text, target=CPU)(*program.args)
    assert jax_programs.compare([np.asarray(g) for g in got], program.want) is None
