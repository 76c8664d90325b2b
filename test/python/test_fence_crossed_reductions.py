"""shlo-fence-crossed-reductions: reductions read along two dimensions by elementwise code
(IREE 3.13's llvm-cpu fused them wrongly once the matrix outgrew one tile: 5 f64 rows for an
AVX2 CPU, 33 for AVX-512), compiled for an AVX2 CPU (cpu:haswell runs on AVX-512 hosts too)
and for this machine, against numpy; jax.lax.linalg.tridiagonal's decomposition (where the
AVX2 failure was found) against LAPACK."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg.lapack

import shlo
from shlo.runtime.lapack_host import linalg_as_stablehlo

TARGETS = ["cpu:haswell", "cpu"]


def crossed(x, y):
    s = (x * y).sum(0)
    p = x @ y[0]
    m = jnp.argmax(x, 0).astype(x.dtype)
    return (x - jnp.outer(s, s), x - p[:, None] * p[None, :], x - jnp.outer(m, m),
            (x - s[None, :]).T - s[None, :])


def oracle(x, y):
    s, p, m = (x * y).sum(0), x @ y[0], np.argmax(x, 0).astype(x.dtype)
    return x - np.outer(s, s), x - np.outer(p, p), x - np.outer(m, m), (x - s).T - s


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype, n", [(np.float64, 100), (np.float32, 33)])
def test_reductions_read_along_two_dimensions(target, dtype, n):
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal((n, n)).astype(dtype) for _ in range(2))
    with jax.enable_x64(dtype == np.float64):
        text = jax.jit(crossed).lower(x, y).as_text()
    got = shlo.compile(text, target=target)(x, y)
    want = oracle(x.astype(np.float64), y.astype(np.float64))
    tol = 1e-11 if dtype == np.float64 else 2e-4
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype, lower, shape", [
    (np.float64, False, (2, 6, 6)), (np.float64, True, (33, 33)), (np.float32, False, (2, 9, 9))])
def test_tridiagonal_decomposition_on_avx2_and_host(ctx, target, dtype, lower, shape):
    """The StableHLO decomposition of lapack_?sytrd_ffi (test_lapack_calls' 2x6x6 f64 upper
    failed on AVX2 machines in 16 of 36 elements of a'), equal to LAPACK's sytrd."""
    a = np.random.default_rng(31 + lower).standard_normal(shape).astype(dtype)
    fn = jax.jit(lambda m: jax.lax.linalg.tridiagonal(m, lower=lower))
    with jax.enable_x64(dtype == np.float64):
        text = fn.lower(a).as_text()
    got = [np.asarray(r) for r in shlo.compile(shlo.parse_module(text, context=ctx),
                                                target=linalg_as_stablehlo(target))(a)]
    lapack = getattr(scipy.linalg.lapack, "dsytrd" if dtype == np.float64 else "ssytrd")
    tol = 1e-12 if dtype == np.float64 else 2e-5
    for k, member in enumerate(a.reshape((-1,) + shape[-2:])):
        for g, w in zip(got, lapack(member, lower=int(lower))[:4]):
            np.testing.assert_allclose(g.reshape((-1,) + g.shape[len(shape) - 2:])[k], w,
                                       atol=tol * 10 * shape[-1])
