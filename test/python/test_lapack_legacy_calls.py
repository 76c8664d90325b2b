"""jaxlib's LAPACK calls from before its FFI (api_version 2, 2023), in the forms jax exported
and StableHLO's testdata holds: sizes and flags as scalar operands, a tuple result or several
results, workspace results. Oracles: scipy's LAPACK (lu_factor, qr's raw geqrf output,
solve_triangular, cholesky) and numpy's eigvalsh, svd and eigvals (with the residuals of the
eigenvectors, which are unique only up to a phase)."""
import numpy as np
import pytest
import scipy.linalg

import shlo

I32 = "tensor<i32>"


def _consts(*values):
    return "\n".join(f"    %k{i} = stablehlo.constant dense<{v}> : tensor<i32>"
                     for i, v in enumerate(values))


LEGACY = f"""
func.func @getrf(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>) {{
{_consts(1, 4, 4)}
    %r = stablehlo.custom_call @lapack_sgetrf(%k0, %k1, %k2, %a) {{api_version = 2 : i32,
        operand_layouts = [dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>, dense<[0, 1]> : tensor<2xindex>],
        result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]}}
        : ({I32}, {I32}, {I32}, tensor<4x4xf32>) -> tuple<tensor<4x4xf32>, tensor<4xi32>, tensor<i32>>
    %lu = stablehlo.get_tuple_element %r[0] : (tuple<tensor<4x4xf32>, tensor<4xi32>, tensor<i32>>) -> tensor<4x4xf32>
    %piv = stablehlo.get_tuple_element %r[1] : (tuple<tensor<4x4xf32>, tensor<4xi32>, tensor<i32>>) -> tensor<4xi32>
    %info = stablehlo.get_tuple_element %r[2] : (tuple<tensor<4x4xf32>, tensor<4xi32>, tensor<i32>>) -> tensor<i32>
    return %lu, %piv, %info : tensor<4x4xf32>, tensor<4xi32>, tensor<i32>
}}
func.func @trsm(%a: tensor<3x3xcomplex<f64>>, %b: tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>> {{
{_consts(0, 0, 2, 0, 2, 3, 1)}
    %alpha = stablehlo.constant dense<(2.0, -1.0)> : tensor<complex<f64>>
    %x = stablehlo.custom_call @blas_ztrsm(%k0, %k1, %k2, %k3, %k4, %k5, %k6, %alpha, %a, %b) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, {I32}, {I32}, {I32}, {I32}, tensor<complex<f64>>, tensor<3x3xcomplex<f64>>, tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
    return %x : tensor<2x3xcomplex<f64>>
}}
func.func @potrf(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>) {{
{_consts(0, 1, 3)}
    %r:2 = stablehlo.custom_call @lapack_dpotrf(%k0, %k1, %k2, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
    return %r#0, %r#1 : tensor<3x3xf64>, tensor<i32>
}}
func.func @qr(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<4x3xf32>) {{
{_consts(1, 4, 3, 96, 3)}
    %r:4 = stablehlo.custom_call @lapack_sgeqrf(%k0, %k1, %k2, %k3, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, {I32}, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<i32>, tensor<96xf32>)
    %q:3 = stablehlo.custom_call @lapack_sorgqr(%k0, %k1, %k2, %k4, %k3, %r#0, %r#1) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, {I32}, {I32}, tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<i32>, tensor<96xf32>)
    return %r#0, %r#1, %q#0 : tensor<4x3xf32>, tensor<3xf32>, tensor<4x3xf32>
}}
func.func @syevd(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>) {{
{_consts(1, 2, 3)}
    %r:5 = stablehlo.custom_call @lapack_ssyevd(%k0, %k1, %k2, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>, tensor<34xf32>, tensor<18xi32>)
    return %r#0, %r#1, %r#2 : tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>
}}
func.func @gesdd(%a: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>) {{
{_consts(0, 1, 1, 4, 3, 64)}
    %r:7 = stablehlo.custom_call @lapack_sgesdd(%k0, %k1, %k2, %k3, %k4, %k5, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, {I32}, {I32}, {I32}, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<i32>, tensor<24xi32>, tensor<64xf32>)
    return %r#1, %r#2, %r#3 : tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>
}}
func.func @geev(%a: tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>) {{
{_consts(1, 3)}
    %v = stablehlo.constant dense<86> : tensor<ui8>
    %r:8 = stablehlo.custom_call @lapack_sgeev(%k0, %k1, %v, %v, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, tensor<ui8>, tensor<ui8>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
    return %r#3, %r#4, %r#5, %r#6 : tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>
}}
func.func @gees(%a: tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>) {{
{_consts(1, 3)}
    %v = stablehlo.constant dense<86> : tensor<ui8>
    %n = stablehlo.constant dense<78> : tensor<ui8>
    %r:6 = stablehlo.custom_call @lapack_cgees(%k0, %k1, %v, %n, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, tensor<ui8>, tensor<ui8>, tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>, tensor<i32>)
    return %r#0, %r#2, %r#3 : tensor<3x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>
}}
"""


@pytest.fixture(scope="module")
def exe():
    return shlo.compile(shlo.parse_module(LEGACY, context=shlo.context()), target="cpu")


RNG = np.random.default_rng(7)


@pytest.mark.slow
def test_getrf_in_its_tuple_form_is_lapacks_lu(exe):
    a = RNG.standard_normal((4, 4)).astype(np.float32)
    lu, piv, info = exe.function("getrf")(a)
    want_lu, want_piv = scipy.linalg.lu_factor(a)
    np.testing.assert_allclose(lu, want_lu, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(piv, want_piv + 1)          # LAPACK's 1-based ipiv
    assert int(info) == 0


def test_trsm_solves_on_the_right_with_the_adjoint_and_alpha(exe):
    a = np.triu(RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))) + 4 * np.eye(3)
    b = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    x = exe.function("trsm")(a, b)              # right side, upper, adjoint: x a^H = alpha b
    np.testing.assert_allclose(x @ a.conj().T, (2 - 1j) * b, rtol=1e-12, atol=1e-12)


def test_potrf_of_the_upper_triangle(exe):
    m = RNG.standard_normal((3, 3))
    a = m @ m.T + 3 * np.eye(3)
    factor, info = exe.function("potrf")(np.triu(a))     # lower = 0: reads the upper triangle
    np.testing.assert_allclose(np.triu(factor), scipy.linalg.cholesky(a, lower=False),
                               rtol=1e-12, atol=1e-12)
    assert int(info) == 0


def test_geqrf_and_orgqr_are_lapacks(exe):
    a = RNG.standard_normal((4, 3)).astype(np.float32)
    qr, tau, q = exe.function("qr")(a)
    (want_qr, want_tau), _ = scipy.linalg.qr(a, mode="raw")
    np.testing.assert_allclose(qr, want_qr, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tau, want_tau, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(q, scipy.linalg.qr(a, mode="economic")[0], rtol=1e-5, atol=1e-5)


def test_syevd_of_a_batch(exe):
    m = RNG.standard_normal((2, 3, 3)).astype(np.float32)
    a = m + m.transpose(0, 2, 1)
    v, w, info = exe.function("syevd")(a)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(a @ v, v * w[:, None, :], rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(info, [0, 0])


def test_gesdd_without_full_matrices(exe):
    a = RNG.standard_normal((4, 3)).astype(np.float32)
    s, u, vt = exe.function("gesdd")(a)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose((u * s) @ vt, a, rtol=1e-4, atol=1e-4)


def test_geev_of_a_real_matrix_with_a_complex_pair(exe):
    a = np.array([[0, -2, 1], [2, 0, 0.5], [0, 0, 3]], np.float32)     # eigenvalues +-2i, 3
    wr, wi, vl, vr = exe.function("geev")(a)
    w = wr + 1j * wi
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(a)),
                               atol=1e-5)
    np.testing.assert_allclose(a @ vr, vr * w, atol=1e-5)                 # right: a v = w v
    np.testing.assert_allclose(vl.conj().T @ a, w[:, None] * vl.conj().T, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(vr, axis=0), 1, rtol=1e-5)


def test_gees_of_a_complex_matrix_puts_rwork_before_w(exe):
    a = (RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))).astype(np.complex64)
    t, w, z = exe.function("gees")(a)
    np.testing.assert_allclose(z @ t @ z.conj().T, a, atol=1e-5)
    np.testing.assert_allclose(np.tril(t, -1), 0, atol=1e-6)
    np.testing.assert_allclose(w, np.diag(t), atol=1e-6)
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(a)),
                               atol=1e-5)


def test_a_flag_that_is_not_a_constant_is_a_clear_error(ctx):
    text = f"""
func.func @main(%lower: tensor<i32>, %a: tensor<3x3xf32>) -> tensor<3x3xf32> {{
{_consts(1, 3)}
    %r:2 = stablehlo.custom_call @lapack_spotrf(%lower, %k0, %k1, %a) {{api_version = 2 : i32}}
        : ({I32}, {I32}, {I32}, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
    return %r#0 : tensor<3x3xf32>
}}"""
    with pytest.raises(shlo.Error, match=r"@lapack_spotrf: operand 0 \(a size or flag of "
                                         r"jaxlib's old LAPACK convention\) is not a compile-time"):
        shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")
