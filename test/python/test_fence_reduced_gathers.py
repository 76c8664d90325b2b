"""shlo-fence-reduced-gathers: IREE 3.13 on Vulkan summed gathered rows combined with other
values over two or more dimensions wrongly (garbage, inf, NaN, every call, also without
shlo's passes; found by shlo-fuzz --jax seed 4, programs 23 and 30): `jnp.sum(x[i] + x)` of
f32[8, 16] gave 1.1e15 for 24.1. Against XLA, two calls each, cpu and vulkan, from the sizes
that were wrong up to 4M elements. docs/iree_gaps.md#shlo-fence-reduced-gathers"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo.jax

CASES = {
    # name: (function of (x, i), x's shape); i indexes x's first dimension
    # (bf16_rows: XLA's CPU skips a bf16 rounding the spec asks for, 0.1% apart; the
    # garbage was 1e15, inf or NaN)
    "sum_of_rows_plus_x": (lambda x, i: jnp.sum(x[i] + x), (8, 16)),
    "mean_square_of_mixed_rows": (lambda x, i: jnp.mean((x[i] * 0.5 + x * 0.5) ** 2), (16, 16)),
    "sum_over_rows_and_columns_3d": (lambda x, i: jnp.sum(x[i] + x, axis=(0, 1)), (8, 8, 8)),
    "transposed": (lambda x, i: jnp.sum(x[i].T + x.T), (8, 16)),
    "bf16_rows": (lambda x, i: jnp.mean((x[i].astype(jnp.bfloat16)
                                         - x.astype(jnp.bfloat16)).astype(jnp.float32) ** 2),
                  (16, 8)),
    "real_size": (lambda x, i: jnp.sum(x[i] * x), (1024, 4096)),
}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", list(CASES))
def test_sums_of_gathered_rows(name, target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    f, shape = CASES[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    i = rng.integers(0, shape[0], shape[0]).astype(np.int32)
    want = np.asarray(jax.jit(f, backend="cpu")(x, i))
    run = shlo.jax.jit(f, target=target)
    rtol = 1e-2 if name == "bf16_rows" else 2e-5
    for call in range(2):
        np.testing.assert_allclose(np.asarray(run(x, i)), want, rtol=rtol, atol=1e-4,
                                   err_msg=f"call {call}")
