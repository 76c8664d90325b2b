"""shlo-expand-complex-dot: complex dot_general (IREE 3.13 fails to compile a complex<f32>
matrix product on CPU and Vulkan, and crashed on a complex<f64> one in a loop) as four real
products, against numpy in complex128."""
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

def _dot(name, lhs, rhs, out, numbers, element="complex<f32>") -> str:
    t = [f"tensor<{'x'.join(map(str, s))}{'x' if s else ''}{element}>" for s in (lhs, rhs, out)]
    return (f"func.func @{name}(%a: {t[0]}, %b: {t[1]}) -> {t[2]} {{\n"
            f"  %r = stablehlo.dot_general %a, %b, {numbers} : ({t[0]}, {t[1]}) -> {t[2]}\n"
            f"  return %r : {t[2]}\n}}")


CASES = [
    ("matmul", (4, 8), (8, 3), (4, 3), "contracting_dims = [1] x [0]",
     lambda a, b: a @ b),
    ("data_tiled", (64, 128), (128, 32), (64, 32), "contracting_dims = [1] x [0]",
     lambda a, b: a @ b),
    ("batched_transposed", (2, 5, 6), (2, 7, 6), (2, 5, 7),
     "batching_dims = [0] x [0], contracting_dims = [2] x [2]",
     lambda a, b: np.einsum("bik,bjk->bij", a, b)),
    ("vector", (9,), (9,), (), "contracting_dims = [0] x [0]", lambda a, b: a @ b),
]


@pytest.mark.parametrize("target, dtype", [("cpu", np.complex64), ("vulkan", np.complex64),
                                           ("cpu", np.complex128)])
@pytest.mark.every_case
def test_complex_products_match_numpy(ctx, target, dtype):
    if target == "vulkan":
        vulkan_or_skip()
    element = "complex<f32>" if dtype == np.complex64 else "complex<f64>"
    exe = shlo.compile(shlo.parse_module("\n".join(_dot(*c[:5], element) for c in CASES),
                                         context=ctx), target=target)
    rng = np.random.default_rng(3)
    tol = 1e-5 if dtype == np.complex64 else 1e-13
    for name, lhs, rhs, _, _, oracle in CASES:
        a, b = ((rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype(dtype)
                for s in (lhs, rhs))
        got = np.asarray(exe.function(name)(a, b))
        want = oracle(a.astype(np.complex128), b.astype(np.complex128))
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(lhs[-1]),
                                   err_msg=name)


def test_complex128_triangular_solve_compiles(ctx):
    """jax's solve_triangular of complex128 (lapack_ztrsm_ffi -> triangular_solve, a loop with
    a complex<f64> dot): IREE 3.13 crashed the process with data tiling on; against numpy."""
    rng = np.random.default_rng(5)
    a = np.tril(rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))) + 4 * np.eye(4)
    b = rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))
    text = """func.func @main(%a: tensor<4x4xcomplex<f64>>, %b: tensor<4x5xcomplex<f64>>)
        -> tensor<4x5xcomplex<f64>> {
      %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true,
          unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}
          : (tensor<4x4xcomplex<f64>>, tensor<4x5xcomplex<f64>>) -> tensor<4x5xcomplex<f64>>
      return %0 : tensor<4x5xcomplex<f64>>
    }"""
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(a, b)
    np.testing.assert_allclose(got, np.linalg.solve(a, b), rtol=1e-13, atol=1e-13)


def _two_product(a, b):
    """a * b as an unevaluated sum p + e of two f64 (Dekker/Veltkamp, no FMA needed)."""
    def split(x):
        c = 134217729.0 * x
        hi = c - (c - x)
        return hi, x - hi
    p = a * b
    (ah, al), (bh, bl) = split(a), split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _correctly_rounded(a, b):
    """a @ b for complex128 matrices, each part the exact sum rounded once (math.fsum)."""
    import math
    out = np.zeros((a.shape[0], b.shape[1]), np.complex128)
    for i, j in np.ndindex(out.shape):
        re, im = [], []
        for k in range(a.shape[1]):
            for x, y, terms, sign in ((a[i, k].real, b[k, j].real, re, 1),
                                      (a[i, k].imag, b[k, j].imag, re, -1),
                                      (a[i, k].real, b[k, j].imag, im, 1),
                                      (a[i, k].imag, b[k, j].real, im, 1)):
                terms.extend(sign * t for t in _two_product(x, y))
        out[i, j] = complex(math.fsum(re), math.fsum(im))
    return out


def _ulps(got, exact):
    g = np.concatenate([got.real.ravel(), got.imag.ravel()])
    e = np.concatenate([exact.real.ravel(), exact.imag.ravel()])
    return np.abs(g - e) / np.spacing(np.abs(e))


def test_complex128_products_are_as_accurate_as_xla(ctx):
    """jax's complex128 products of values converted from f16/f32/u32 (4x3 times 3x6, as
    its test generators emit them) and of complex values (16x64 times 64x16): the mean ULP
    error against the correctly rounded product is at most XLA's (CPU) plus 25%. (Cancelling
    parts are far from XLA's own values in ULPs: both are inexact, XLA's per product and
    shlo's through IREE's fused multiply-adds.)"""
    import jax
    import jax.numpy as jnp
    with jax.enable_x64(True):          # (scoped: a global switch leaked into other tests)
        rng = np.random.default_rng(7)
        small = [(rng.normal(size=(4, 3)) * 3).astype(np.float16),
                 (rng.normal(size=(4, 3)) * 3).astype(np.float32),
                 rng.integers(0, 7, (4, 3)).astype(np.uint32)]
        big = rng.normal(size=(16, 64)) + 1j * rng.normal(size=(16, 64))
        cases = [(a, (rng.normal(size=(3, 6)) + 1j * rng.normal(size=(3, 6))) * 3) for a in small
                 for _ in range(8)]
        cases.append((big, rng.normal(size=(64, 16)) + 1j * rng.normal(size=(64, 16))))

        def product(a, b):
            return jnp.matmul(a.astype(jnp.complex128), b)
        ours, xla = [], []
        for a, b in cases:
            exe = shlo.compile(jax.jit(product).lower(a, b).as_text(), target="cpu")
            exact = _correctly_rounded(a.astype(np.complex128), b)
            ours.append(_ulps(np.asarray(exe(a, b)), exact))
            xla.append(_ulps(np.asarray(jax.jit(product)(a, b)), exact))
    for got, ref, what in ((ours[:-1], xla[:-1], "4x3 from f16/f32/u32"),
                           (ours[-1:], xla[-1:], "16x64 complex")):
        got, ref = np.concatenate(got), np.concatenate(ref)
        assert got.mean() <= 1.25 * ref.mean(), (what, got.mean(), ref.mean())
