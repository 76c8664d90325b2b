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
