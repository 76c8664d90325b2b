"""Complex division by Smith's algorithm (shlo-accurate-math for complex<f32>,
shlo-expand-f64-math for complex<f64>): IREE's formed |c|^2 + |d|^2, which overflows past
1.8e19 (f32) or 1.3e154 (f64) and underflows below their square roots: (1e30 + 0i) / (1e30 + 0i)
was NaN (shlo-fuzz seed 49 program 240). Checked against numpy in long double at 1M elements."""
import os

import numpy as np
import pytest
import shlo
from shlo.tools.fuzz import fuzz
from shlo.tools.fuzz.runner import InProcess

HERE = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions")


def test_fuzz_reproducer():
    assert fuzz.replay(os.path.join(HERE, "complex_divide_huge_cpu"), worker=InProcess()) is None


def _divide(ct: str, n: int) -> str:
    return (f"func.func @main(%a: tensor<{n}x{ct}>, %b: tensor<{n}x{ct}>) -> tensor<{n}x{ct}> {{\n"
            f"  %0 = stablehlo.divide %a, %b : tensor<{n}x{ct}>\n"
            f"  return %0 : tensor<{n}x{ct}>\n}}")


@pytest.mark.parametrize("dtype,ct,huge,tiny", [
    (np.complex64, "complex<f32>", (19, 34), (-25, -20)),
    (np.complex128, "complex<f64>", (154, 300), (-280, -155))])
@pytest.mark.every_case
def test_divisors_past_the_square_root_of_the_range(dtype, ct, huge, tiny):
    """Divisors whose squared magnitude overflows or underflows, numerators within 1e3 of them
    (quotients of 1e-3 to 1e3; no subnormal, which the CPU flushes, within 1e-10 of a part):
    every quotient within 8 ULPs (IREE's: NaN, inf or 0)."""
    n = 1 << 20
    rng = np.random.default_rng(240)
    exponents = np.concatenate([rng.uniform(*huge, n // 2), rng.uniform(*tiny, n - n // 2)])
    b = 10.0 ** exponents * np.exp(1j * rng.uniform(0, 2 * np.pi, n))
    a = np.abs(b) * 10.0 ** rng.uniform(-3, 3, n) * np.exp(1j * rng.uniform(0, 2 * np.pi, n))
    a, b = a.astype(dtype), b.astype(dtype)
    a[:4] = b[:4]                               # x / x
    got = np.asarray(shlo.compile(_divide(ct, n), target="cpu", cache=False)(a, b))
    want = a.astype(np.clongdouble) / b.astype(np.clongdouble)
    err = np.abs(got - want) / np.abs(want) / np.finfo(dtype).eps
    assert np.all(np.isfinite(got)) and np.max(err) <= 8, float(np.max(err))


def test_special_values():
    """C99 Annex G's values where Smith's gives NaN + iNaN: x / 0 is an infinity, an infinity
    over a finite divisor an infinity, a finite number over an infinite divisor 0."""
    inf, nan = np.inf, np.nan
    a = np.array([1 + 1j, complex(inf, 1), 2 - 3j, complex(nan, nan), 1e30, 1 + 2j], np.complex64)
    b = np.array([0, 1 + 1j, complex(inf, inf), 0, 1e30 + 1e30j, 3 - 4j], np.complex64)
    got = np.asarray(shlo.compile(_divide("complex<f32>", 6), target="cpu", cache=False)(a, b))
    assert np.isinf(got[0].real) and np.isinf(got[0].imag)
    assert np.isinf(got[1].real) or np.isinf(got[1].imag)
    assert got[2] == 0 and np.isnan(got[3].real) and np.isnan(got[3].imag)
    np.testing.assert_allclose(got[4:], (a[4:].astype(complex) / b[4:]).astype(np.complex64),
                               rtol=4e-7)
