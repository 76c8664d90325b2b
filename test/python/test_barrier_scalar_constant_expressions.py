"""shlo-barrier-scalar-constant-expressions: scalars computed from constants alone (complex start
values of reductions) keep their own values when a function has several, on cpu and vulkan, at
64K elements, against numpy. IREE 3.13 hoisted them as one dispatch of several results and gave
every global the first result: `z.sum(), z.prod()` of complex64 z on vulkan returned a product
started from (0, 0), silently (docs/iree_gaps.md#shlo-barrier-scalar-constant-expressions)."""
import numpy as np
import pytest

import shlo
import shlo.jax

N = 65536
S = "tensor<complex<f32>>"
# a sum from (0, 0) and a product from (1, 0), each start written as stablehlo.complex of
# constants (as shlo-split-complex-constants writes every complex<f32> constant on vulkan)
REDUCES = """func.func @main(%z: {C}) -> ({S}, {S}) {{
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %zero = stablehlo.complex %c0, %c0 : {S}
  %one = stablehlo.complex %c1, %c0 : {S}
  %s = stablehlo.reduce(%z init: %zero) applies stablehlo.add across dimensions = [0] : ({C}, {S}) -> {S}
  %p = stablehlo.reduce(%z init: %one) applies stablehlo.multiply across dimensions = [0] : ({C}, {S}) -> {S}
  return %s, %p : {S}, {S}
}}"""


def _unit_circle(n: int, seed: int) -> np.ndarray:
    """Complex numbers of magnitude 1 and any phase: their sum is small (rounded to about
    1e-3) and their product neither overflows nor vanishes, so a start of 1 for 0 (or 0 for
    1) is 1 off in either."""
    theta = np.random.default_rng(seed).uniform(-np.pi, np.pi, n)
    return np.exp(1j * theta).astype(np.complex64)


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


@pytest.mark.every_case
@pytest.mark.parametrize("n", [8, N])
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_sum_and_product_from_constant_complex_starts(target, n):
    """(8 elements were wrong on cpu too, 65536 on vulkan.)"""
    _target(target)
    z = _unit_circle(n, 0)
    text = REDUCES.format(C=f"tensor<{n}xcomplex<f32>>", S=S)
    total, product = (complex(np.asarray(r)) for r in shlo.compile(text, target=target)(z))
    z64 = z.astype(np.complex128)
    assert abs(total - z64.sum()) <= 0.05
    assert abs(product - z64.prod()) <= 0.05


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_jax_sum_and_product_of_complex64(target):
    """jax's start values, complex constants: on vulkan shlo splits them into
    stablehlo.complex of two constants, which this pass reads through barriers."""
    _target(target)
    z = _unit_circle(N, 1).reshape(256, 256)

    def f(z):
        return z.sum(), z.prod(), z.sum(axis=0), z.prod(axis=1)
    got = [np.asarray(r) for r in shlo.jax.jit(f, target=target)(z)]
    z64 = z.astype(np.complex128)
    want = [z64.sum(), z64.prod(), z64.sum(axis=0), z64.prod(axis=1)]
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(g, w, rtol=2e-3, atol=1e-3, err_msg=f"result {i}")
