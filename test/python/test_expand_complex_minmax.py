"""shlo-expand-complex-minmax against numpy's lexicographic order (numpy's maximum/minimum on
complex numbers compare real parts, then imaginary parts, as the spec does), ties and signed
zeros included, on CPU and Vulkan. One module."""
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip

TEXT = "\n".join(
    f"""func.func @{op}_{n}(%a: tensor<16x{t}>, %b: tensor<16x{t}>) -> tensor<16x{t}> {{
  %0 = stablehlo.{op} %a, %b : tensor<16x{t}>
  return %0 : tensor<16x{t}>
}}""" for op in ("maximum", "minimum") for n, t in (("c64", "complex<f32>"), ("c128", "complex<f64>")))
DTYPES = {"c64": np.complex64, "c128": np.complex128}
CASES = [(op, n) for op in ("maximum", "minimum") for n in DTYPES]


def _inputs(n):
    parts = np.array([-1.0, -0.0, 0.0, 2.5])
    a = (np.tile(parts, 4) + 1j * np.repeat(parts, 4)).astype(DTYPES[n])
    b = (np.repeat(parts, 4) + 1j * np.tile(parts[::-1], 4)).astype(DTYPES[n])
    return a, b


def _check(exe, op, n):
    a, b = _inputs(n)
    got = exe.function(f"{op}_{n}")(a, b)
    want = getattr(np, op)(a, b)
    np.testing.assert_array_equal(got, want, err_msg=f"{op} {n}")


@pytest.fixture(scope="module")
def cpu(ctx):
    return shlo.compile(shlo.parse_module(TEXT, context=ctx), target="cpu")


@pytest.mark.parametrize("op,n", CASES)
@pytest.mark.every_case
def test_cpu_against_numpy(cpu, op, n):
    _check(cpu, op, n)


def test_vulkan_against_numpy(ctx):
    vulkan_or_skip()
    exe = shlo.compile(shlo.parse_module(TEXT, context=ctx), target="vulkan")
    for op, n in CASES:
        _check(exe, op, n)
