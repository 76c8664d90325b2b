"""shlo-barrier-constant-expressions, on cpu and vulkan against numpy: scalars computed from
constants alone (complex start values of reductions) keep their own values when a function has
several (IREE gave every one the first: `z.sum(), z.prod()` of complex64 on vulkan started the
product from (0, 0)), and a value computed from constants alone comes back right when it is
also updated in place (512K elements: IREE returned it updated and the update as zeros).
docs/iree_gaps.md#shlo-barrier-constant-expressions"""
import jax
import jax.numpy as jnp
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


M = 524288      # more than IREE hoists (1 MiB of f32): computed by the function itself
UPDATED = f"""func.func @main(%x: tensor<4xf32>, %i: tensor<i32>) -> (tensor<{M}xf32>, tensor<{M}xf32>, tensor<{M}xf32>, tensor<{M}xf32>) {{
  %io = stablehlo.iota dim = 0 : tensor<{M}xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<{M}xf32>
  %c100 = stablehlo.constant dense<100.0> : tensor<{M}xf32>
  %a = stablehlo.multiply %io, %c2 : tensor<{M}xf32>
  %b = stablehlo.add %io, %c100 : tensor<{M}xf32>
  %ua = stablehlo.dynamic_update_slice %a, %x, %i : (tensor<{M}xf32>, tensor<4xf32>, tensor<i32>) -> tensor<{M}xf32>
  %ub = stablehlo.dynamic_update_slice %b, %x, %i : (tensor<{M}xf32>, tensor<4xf32>, tensor<i32>) -> tensor<{M}xf32>
  return %a, %ua, %ub, %b : tensor<{M}xf32>, tensor<{M}xf32>, tensor<{M}xf32>, tensor<{M}xf32>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_returned_values_of_constants_and_their_updates(target):
    """`return a, dynamic_update_slice(a, x, i)` with a = 2 * iota: IREE returned a updated
    and the update as zeros (all four results; starts inside and clamped)."""
    _target(target)
    x = np.array([-1, -2, -3, -4], np.float32)
    a = np.arange(M, dtype=np.float32) * 2
    b = np.arange(M, dtype=np.float32) + 100
    exe = shlo.compile(UPDATED, target=target)
    for i in (3, M - 2):
        start = min(i, M - 4)
        ua, ub = a.copy(), b.copy()
        ua[start:start + 4] = x
        ub[start:start + 4] = x
        for k, (got, want) in enumerate(zip(exe(x, np.int32(i)), (a, ua, ub, b))):
            np.testing.assert_array_equal(np.asarray(got), want, err_msg=f"start {i} result {k}")


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_jax_arange_returned_and_updated(target):
    """jax's aranges returned beside their updates: a dynamic_update_slice of f32, a
    scatter-add into i32, a complex64 update; three calls, each against numpy."""
    _target(target)

    def f(x, i, idx):
        a = jnp.arange(M, dtype=jnp.float32) * 2
        b = jnp.arange(M, dtype=jnp.int32) - 7
        c = jnp.arange(M // 2, dtype=jnp.float32) * (1 - 2j)
        return (a, jax.lax.dynamic_update_slice(a, x, (i,)), b, b.at[idx].add(3),
                c, c.at[i].set(x[0] * 1j))
    x = np.array([7, 8, 9], np.float32)
    idx = np.array([5, 5, M - 1, 0], np.int32)
    fn = shlo.jax.jit(f, target=target)
    a = np.arange(M, dtype=np.float32) * 2
    b = np.arange(M, dtype=np.int32) - 7
    c = (np.arange(M // 2, dtype=np.float32) * (1 - 2j)).astype(np.complex64)
    ua, ub, uc = a.copy(), b.copy(), c.copy()
    ua[10:13] = x
    np.add.at(ub, idx, 3)
    uc[10] = x[0] * 1j
    for call in range(3):
        got = [np.asarray(r) for r in fn(x, np.int32(10), idx)]
        for k, (g, want) in enumerate(zip(got, (a, ua, b, ub, c, uc))):
            np.testing.assert_array_equal(g, want, err_msg=f"call {call} result {k}")


@pytest.mark.parametrize("n", [131584, 262144 + 4096 * 3])
@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_constant_scatter_cut_into_a_loop(target, n):
    """`zeros(n).at[::2].add(1)`: on vulkan shlo-split-long-reduce cuts the scatter of n / 2
    updates into a loop of chunks and a rest, a loop of constants alone, which IREE hoisted
    into an initializer that never compiled ('maximum iteration count exceeded in fixed point
    pipeline'); with loops=true its carried value is selected at run time. Two calls."""
    _target(target)

    def f(x):
        z = jnp.zeros((n,), jnp.int32).at[jnp.arange(0, n, 2)].add(jnp.arange(n // 2) % 7)
        return z + x
    fn = shlo.jax.jit(f, target=target)
    x = np.arange(n, dtype=np.int32)
    want = x.copy()
    want[::2] += np.arange(n // 2, dtype=np.int32) % 7
    for call in range(2):
        np.testing.assert_array_equal(np.asarray(fn(x)), want, err_msg=f"call {call}")
