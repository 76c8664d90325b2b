"""jax's SVD exported for CUDA and ROCm (cusolver_/hipsolver_ gesvdj and gesvd: V or vt, the
transposed form of a wide matrix, reduced and full matrices, no vectors), decomposed by
shlo.passes.custom_calls.gpu_svd_calls: numpy's singular values, u diag(s) vt = a with orthonormal
columns and rows, and the result shapes of jax's CPU lowering."""
import jax
import numpy as np
import pytest
from jax import export
from jax.lax.linalg import SvdAlgorithm

import shlo

CASES = [  # platform, shape, dtype, algorithm (None: jax's choice, Jacobi), full, compute_uv
    ("cuda", (4, 6), np.float32, None, True, True),
    ("cuda", (4, 6), np.complex64, SvdAlgorithm.QR, False, True),    # gesvd, transposed
    ("cuda", (6, 4), np.float32, SvdAlgorithm.QR, True, True),       # gesvd
    ("rocm", (2, 5, 3), np.float32, None, False, False),
]


@pytest.mark.parametrize("platform, shape, dtype, algorithm, full, uv", CASES)
@pytest.mark.slow
def test_gpu_svd_exports(ctx, platform, shape, dtype, algorithm, full, uv):
    rng = np.random.default_rng(41)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    fn = jax.jit(lambda m: jax.lax.linalg.svd(m, full_matrices=full, compute_uv=uv,
                                              algorithm=algorithm))
    text = export.export(fn, platforms=[platform])(a).mlir_module()
    assert "solver_gesvd" in text
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(a)
    want_s = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
    if not uv:
        np.testing.assert_allclose(got, want_s, atol=1e-5)
        return
    u, s, vt = (np.asarray(x) for x in got)
    assert [u.shape, s.shape, vt.shape] == [np.shape(x) for x in fn(a)]
    np.testing.assert_allclose(s, want_s, atol=1e-5)
    k = min(shape[-2:])
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vt[..., :k, :], a, atol=1e-5)
    for q, axis in ((u, -2), (vt, -1)):
        gram = np.conj(q).swapaxes(-1, -2) @ q if axis == -2 else q @ np.conj(q).swapaxes(-1, -2)
        np.testing.assert_allclose(gram, np.broadcast_to(np.eye(gram.shape[-1]), gram.shape),
                                   atol=1e-5)
