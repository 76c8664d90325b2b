"""JAX's linear algebra as exported for TPUs: XLA's LuDecomposition, Qr,
ProductOfElementaryHouseholderReflectors and Eigh custom calls decomposed by
shlo.passes.custom_calls.tpu_solver_calls, compiled for the CPU.

Oracles: jax's stored back-compat modules (tpu_Lu, tpu_Qr, tpu_Eigh: the outputs a TPU gave;
eigenvectors, unique only up to sign, checked by what defines them), and LAPACK through scipy
on random inputs in hand-written modules (batched, tall, complex, the upper triangle)."""
import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.lapack
from jax._src.internal_test_util.export_back_compat_test_data import tpu_Eigh, tpu_Lu, tpu_Qr

import shlo

RNG = np.random.default_rng(0)


def _compile(ctx, text):
    return shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")


def _run(exe, *args):
    got = exe(*args)
    return [np.asarray(g) for g in (got if isinstance(got, (list, tuple)) else [got])]


def _close(got, want, tolerance):
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=tolerance * scale)


@pytest.mark.parametrize("data", [tpu_Lu.data_2023_03_21, tpu_Qr.data_2023_03_17],
                         ids=["Lu", "Qr"])
def test_stored_tpu_module(ctx, data):
    got = _run(_compile(ctx, data["mlir_module_text"]))
    for g, w in zip(got, data["expected_outputs"], strict=True):
        if np.asarray(w).dtype.kind == "i":
            np.testing.assert_array_equal(g, w)
        else:
            _close(g, w, 4e-6)


def test_stored_tpu_eigh(ctx):
    """The stored outputs are (v, w) of a rank-2 8x8 matrix; a = V diag(w) V^T rebuilt from
    them is the oracle for v."""
    v, w = _run(_compile(ctx, tpu_Eigh.data["mlir_module_text"]))
    v0, w0 = (np.asarray(x) for x in tpu_Eigh.data["expected_outputs"])
    _close(w, w0, 4e-5)             # the TPU's Jacobi stopped at a tolerance of 1e-5
    a = (v0 * w0) @ v0.T
    scale = np.abs(w0).max()
    np.testing.assert_allclose(a @ v, v * w, rtol=0, atol=1e-4 * scale)
    np.testing.assert_allclose(v.T @ v, np.eye(8), rtol=0, atol=1e-5)


def _tuple_module(target, config, operand, results):
    """main(a) calls `target` (its result a tuple of `results`) and returns the elements."""
    tup = f"tuple<{', '.join(results)}>"
    lines = [f"func.func @main(%a: {operand}) -> ({', '.join(results)}) {{",
             f"  %t = stablehlo.custom_call @{target}(%a) {{{config}}} : ({operand}) -> {tup}"]
    lines += [f"  %e{i} = stablehlo.get_tuple_element %t[{i}] : ({tup}) -> {r}"
              for i, r in enumerate(results)]
    lines += [f"  return {', '.join(f'%e{i}' for i in range(len(results)))} : "
              f"{', '.join(results)}", "}"]
    return "\n".join(lines) + "\n"


def test_lu_batched_tall(ctx):
    text = _tuple_module("LuDecomposition", "", "tensor<2x5x3xf64>",
                         ["tensor<2x5x3xf64>", "tensor<2x3xi32>", "tensor<2x5xi32>"])
    a = RNG.standard_normal((2, 5, 3))
    lu, pivots, perm = _run(_compile(ctx, text), a)
    for b in range(2):
        p, l, u = scipy.linalg.lu(a[b])
        lu0, piv0 = scipy.linalg.lu_factor(a[b])
        _close(lu[b], lu0, 1e-13)
        np.testing.assert_array_equal(pivots[b], piv0)
        np.testing.assert_array_equal(a[b][perm[b]], (p.T @ a[b]))


def test_qr_and_householder_product(ctx):
    """Qr then ProductOfElementaryHouseholderReflectors on a random complex batch: LAPACK's
    cgeqrf and cungqr."""
    a_type, tau_type = "tensor<2x5x3xcomplex<f32>>", "tensor<2x3xcomplex<f32>>"
    text = (f"func.func @main(%a: {a_type}) -> ({a_type}, {tau_type}, {a_type}) {{\n"
            f"  %t = stablehlo.custom_call @Qr(%a) : ({a_type}) -> tuple<{a_type}, {tau_type}>\n"
            f"  %r = stablehlo.get_tuple_element %t[0] : (tuple<{a_type}, {tau_type}>) -> "
            f"{a_type}\n"
            f"  %u = stablehlo.get_tuple_element %t[1] : (tuple<{a_type}, {tau_type}>) -> "
            f"{tau_type}\n"
            f"  %q = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%r, %u) : "
            f"({a_type}, {tau_type}) -> {a_type}\n"
            f"  return %r, %u, %q : {a_type}, {tau_type}, {a_type}\n}}\n")
    a = (RNG.standard_normal((2, 5, 3)) + 1j * RNG.standard_normal((2, 5, 3))).astype(np.complex64)
    r, taus, q = _run(_compile(ctx, text), a)
    for b in range(2):
        r0, tau0, _, info = scipy.linalg.lapack.cgeqrf(a[b])
        q0, _, info2 = scipy.linalg.lapack.cungqr(r0, tau0)
        assert info == info2 == 0
        _close(r[b], r0, 1e-5)
        _close(taus[b], tau0, 1e-5)
        _close(q[b], q0, 1e-5)


def test_eigh_upper_complex(ctx):
    text = _tuple_module("Eigh", 'backend_config = "0,1,15,0.000010"',
                         "tensor<4x4xcomplex<f64>>",
                         ["tensor<4x4xcomplex<f64>>", "tensor<4xf64>"])
    a = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))
    v, w = _run(_compile(ctx, text), a)
    h = np.triu(a, 1) + np.triu(a, 1).conj().T + np.diag(a.diagonal().real)
    _close(w, np.linalg.eigvalsh(h), 1e-13)
    np.testing.assert_allclose(h @ v, v * w, rtol=0, atol=1e-12 * np.abs(h).max())
    np.testing.assert_allclose(v.conj().T @ v, np.eye(4), rtol=0, atol=1e-12)
