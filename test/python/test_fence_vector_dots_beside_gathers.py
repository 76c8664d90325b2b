"""shlo-fence-vector-dots-beside-gathers: IREE 3.13 on Vulkan failed to compile a
vector-matrix or matrix-vector product of 512 outputs or more added to gathered or reversed
values ("failed to legalize operation 'arith.constant'" of a vector<256xf32>, also without
shlo's passes; found by shlo-fuzz --jax seed 5 program 12, an RNN scan over reversed sorted
rows). Against XLA, cpu and vulkan. docs/iree_gaps.md#shlo-fence-vector-dots-beside-gathers"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo.jax


def _scan_over_sorted_rows(x, u, i):
    def cell(h, row):
        h = jnp.tanh(h @ u + row)
        return h, h
    rows = jnp.sort(x, axis=1)[:, ::-1] * 0.5 + x * 0.5
    return jax.lax.scan(cell, jnp.zeros(x.shape[1], x.dtype), rows)[1]


CASES = {
    "scan_over_sorted_rows": _scan_over_sorted_rows,
    "vecmat_plus_reversed": lambda x, u, i: jnp.tanh(x[0] @ u + x[1, ::-1]),
    "matvec_plus_reversed": lambda x, u, i: u @ x[0] - x[1, ::-1],
    "vecmat_plus_gathered": lambda x, u, i: jnp.tanh(x[0] @ u + x[1][i]),
    "vecmat_plus_sorted": lambda x, u, i: x[0] @ u * jnp.sort(x[1]),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("n", [512, 2048])
@pytest.mark.parametrize("name", list(CASES))
def test_vector_products_beside_gathers(name, n, target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    f = CASES[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, n)).astype(np.float32)
    u = (rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)
    i = rng.integers(0, n, n).astype(np.int32)
    want = np.asarray(jax.jit(f, backend="cpu")(x, u, i))
    got = np.asarray(shlo.jax.jit(f, target=target)(x, u, i))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
