"""bf16 mixed-precision programs on Vulkan (shlo-legalize-vulkan-ops): a bf16 matmul at the size
that failed to compile ("failed to legalize operation 'vector.bitcast'") against numpy, and the
bench's small bf16 whole programs against XLA on the CPU (tools/bench_models.py; cnn_train_bf16
took over 400 s to compile before, a bf16 -> f32 convert fused into a column sum)."""
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

import shlo
from shlo.tools import bench_models

from conftest import vulkan_or_skip


def test_bf16_matmul_rounded_once():
    """x.astype(bf16) @ w of [2, 32, 64] x [64, 192] (an attention block's qkv projection): the
    product of the bf16 values in f32, rounded to bf16 once."""
    vulkan_or_skip()
    bf16 = jnp.bfloat16

    def f(x, w):
        return jax.lax.dot_general(x.astype(bf16), w, (((2,), (0,)), ((), ())))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 32, 64), dtype=np.float32)
    w = rng.standard_normal((64, 192), dtype=np.float32).astype(ml_dtypes.bfloat16)
    exe = shlo.compile(jax.jit(f).lower(x, w).as_text(), target="vulkan")
    got = np.asarray(exe(x, w))
    assert got.dtype == ml_dtypes.bfloat16
    exact = np.einsum("btk,kn->btn", x.astype(ml_dtypes.bfloat16).astype(np.float64),
                      w.astype(np.float64))
    want = exact.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)
    # f32 accumulation order may move a result across a rounding boundary: one bf16 ulp at most
    ulp = np.exp2(np.floor(np.log2(np.maximum(np.abs(want), 1e-30))) - 7)
    assert np.all(np.abs(got.astype(np.float64) - want) <= ulp)
    assert np.mean(got.astype(np.float64) == want) > 0.99


@pytest.mark.slow
@pytest.mark.parametrize("name", ["transformer_train_bf16", "cnn_train_bf16"])
def test_small_bf16_program(name):
    """The bench's small program on Vulkan against XLA, at the bench's tolerance (slow: about
    100 s on 2 busy cores, most of it compiling)."""
    vulkan_or_skip()
    model = {m.name: m for m in bench_models.models()}[name]
    prepared = bench_models.prepare(model, small=True)
    got = prepared.shlo_compile("vulkan", cache=False)(*prepared.args)
    assert bench_models.disagreement(model, got, prepared.flat(*prepared.args)) is None
