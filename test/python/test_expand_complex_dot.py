"""shlo-expand-complex-dot: complex<f32> dot_general (IREE 3.13 fails to compile a complex
matrix product on CPU and Vulkan) as four real products, against numpy in complex128."""
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

C = "complex<f32>"


def _dot(name, lhs, rhs, out, numbers) -> str:
    t = [f"tensor<{'x'.join(map(str, s))}{'x' if s else ''}{C}>" for s in (lhs, rhs, out)]
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


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_complex_products_match_numpy(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module("\n".join(_dot(*c[:5]) for c in CASES), context=ctx),
                       target=target)
    rng = np.random.default_rng(3)
    for name, lhs, rhs, _, _, oracle in CASES:
        a, b = ((rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype(np.complex64)
                for s in (lhs, rhs))
        got = np.asarray(exe.function(name)(a, b))
        want = oracle(a.astype(np.complex128), b.astype(np.complex128))
        assert got.dtype == np.complex64
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(lhs[-1]),
                                   err_msg=name)
