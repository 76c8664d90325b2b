"""The benchmark suite's workloads, each written once as a JAX function plus its inputs.

JAX lowers each to StableHLO text; shlo compiles that text through its default
pipeline and XLA (via jax.jit) runs the same function: one program, two compilers.
`numpy` is a third anchor where numpy has the operation.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Workload:
    name: str
    group: str                                   # matmul, reduction, elementwise, sort, ...
    jax_fn: Callable                             # the program (traced once by JAX)
    inputs: Callable[[np.random.Generator], list]
    numpy_fn: Callable | None = None             # same result in numpy, when numpy can
    rtol: float = 1e-4
    atol: float = 1e-4
    heavy: bool = False                          # minutes per round: only run with --only


def _normal(*shape, dtype=np.float32, scale=1.0):
    return lambda rng: rng.standard_normal(shape).astype(dtype) * dtype(scale)


def _full_range_i32(n):
    return lambda rng: rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)


def _inputs(*makers):
    return lambda rng: [m(rng) for m in makers]


def _workloads():
    import jax
    from ml_dtypes import bfloat16
    import jax.numpy as jnp
    from jax import lax

    def mlp(x, w1, w2, w3):
        for w in (w1, w2):
            x = jax.nn.relu(x @ w)
        return x @ w3

    def layernorm(x, g, b):
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * g + b

    def attention(q, k, v):        # [heads, seq, d]
        s = jnp.einsum("hqd,hkd->hqk", q, k) / np.sqrt(q.shape[-1]).astype(np.float32)
        return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), v)

    def conv3x3(x, w):             # NHWC, HWIO
        return lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def resblock(x, w1, w2):
        return jax.nn.relu(x + conv3x3(jax.nn.relu(conv3x3(x, w1)), w2))

    def elementwise10(x, y):
        z = x * y + 1.0
        z = jnp.maximum(z, 0.5) - x
        z = z * z + y * 0.25
        z = jnp.minimum(z, 4.0) / (y * y + 1.0)
        return z - x * 0.5

    def np_elementwise10(x, y):
        z = x * y + 1.0
        z = np.maximum(z, 0.5) - x
        z = z * z + y * 0.25
        z = np.minimum(z, 4.0) / (y * y + 1.0)
        return z - x * 0.5

    def scatter_add(base, idx, upd):
        return base.at[idx].add(upd)

    def np_scatter_add(base, idx, upd):
        out = base.copy()
        np.add.at(out, idx, upd)
        return out

    def gelu(x):
        return 0.5 * x * (1 + lax.erf(x / np.float32(np.sqrt(2))))

    n = 1 << 20
    return [
        Workload("matmul_1024", "matmul", jnp.matmul,
                 _inputs(_normal(1024, 1024), _normal(1024, 1024)), np.matmul, rtol=1e-3),
        Workload("matmul_4096", "matmul", jnp.matmul,
                 _inputs(_normal(4096, 4096), _normal(4096, 4096)), np.matmul, rtol=1e-3,
                 atol=1e-2, heavy=True),     # dots of 4096 terms of size ~64: f32 error ~1e-3
        Workload("matmul_bf16_1024", "matmul", jnp.matmul,
                 _inputs(_normal(1024, 1024, dtype=bfloat16), _normal(1024, 1024, dtype=bfloat16)),
                 rtol=2e-2, atol=1e-1),            # one bf16 rounding of an f32 sum each
        Workload("mlp_256x1024x3", "matmul", mlp,
                 _inputs(_normal(256, 1024), _normal(1024, 1024, scale=0.03),
                         _normal(1024, 1024, scale=0.03), _normal(1024, 1024, scale=0.03)),
                 rtol=1e-3, atol=1e-3),
        Workload("layernorm_4096x1024", "reduction", layernorm,
                 _inputs(_normal(4096, 1024), _normal(1024), _normal(1024)), rtol=1e-3, atol=1e-3),
        Workload("reduce_sum_4096x4096", "reduction", lambda x: x.sum(axis=1),
                 _inputs(_normal(4096, 4096)), lambda x: x.sum(axis=1), rtol=1e-3, atol=1e-2),
        Workload("softmax_4096x4096", "reduction", lambda x: jax.nn.softmax(x, axis=-1),
                 _inputs(_normal(4096, 4096)), rtol=1e-3, atol=1e-6),
        Workload("attention_s512_d512_h8", "matmul", attention,
                 _inputs(_normal(8, 512, 64), _normal(8, 512, 64), _normal(8, 512, 64)),
                 rtol=1e-3, atol=1e-4),
        Workload("conv3x3_56x56x64", "conv", conv3x3,
                 _inputs(_normal(1, 56, 56, 64), _normal(3, 3, 64, 64, scale=0.05)),
                 rtol=1e-3, atol=1e-3),
        Workload("resblock_56x56x64", "conv", resblock,
                 _inputs(_normal(1, 56, 56, 64), _normal(3, 3, 64, 64, scale=0.05),
                         _normal(3, 3, 64, 64, scale=0.05)), rtol=1e-3, atol=1e-3),
        Workload("elementwise10_16M", "elementwise", elementwise10,
                 _inputs(_normal(16 * n), _normal(16 * n)), np_elementwise10),
        Workload("gelu_erf_16M", "chlo", gelu, _inputs(_normal(16 * n)), rtol=1e-4, atol=1e-5),
        Workload("lgamma_16M", "chlo", lax.lgamma,
                 _inputs(lambda rng: rng.uniform(0.1, 20, 16 * n).astype(np.float32)),
                 rtol=1e-4, atol=1e-4),
        Workload("cumsum_1M", "scan", lambda x: jnp.cumsum(x), _inputs(_normal(n)),
                 np.cumsum, rtol=1e-3, atol=1e-2),
        Workload("scatter_add_1M", "scatter", scatter_add,
                 _inputs(_normal(n), lambda rng: rng.integers(0, n, n).astype(np.int32),
                         _normal(n)), np_scatter_add, rtol=1e-4, atol=1e-4),
        Workload("gather_1M", "gather", lambda x, i: x[i],
                 _inputs(_normal(n), lambda rng: rng.integers(0, n, n).astype(np.int32)),
                 lambda x, i: x[i]),
        Workload("argmax_rows_4096x4096", "reduction", lambda x: jnp.argmax(x, axis=1),
                 _inputs(_normal(4096, 4096)), lambda x: np.argmax(x, axis=1)),
        Workload("sort_16K", "sort", jnp.sort, _inputs(_normal(1 << 14)), np.sort),
        Workload("top_k_64x4096_k16", "sort", lambda x: lax.top_k(x, 16)[0],
                 _inputs(_normal(64, 4096)),
                 lambda x: np.sort(np.partition(x, -16, axis=1)[:, -16:], axis=1)[:, ::-1]),
        Workload("sort_64K", "sort", jnp.sort, _inputs(_normal(1 << 16)), np.sort, heavy=True),
        Workload("sort_1M", "sort", jnp.sort, _inputs(_normal(n)), np.sort, heavy=True),
        Workload("sort_i32_64K", "sort", jnp.sort, _inputs(_full_range_i32(1 << 16)), np.sort,
                 heavy=True),
        Workload("sort_i32_1M", "sort", jnp.sort, _inputs(_full_range_i32(n)), np.sort,
                 heavy=True),
    ]


def workloads() -> list[Workload]:
    """Every workload (imports jax on first use)."""
    return _workloads()
