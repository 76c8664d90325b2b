"""shlo-bench's `models` tier: whole jax programs (training steps, loops, scans, sampling),
each checked against XLA and timed side by side with it.

    shlo-bench --suite models [--only cnn_train,lstm_scan] [--target vulkan] [--no-vulkan]
                              [--small]

A model is a function of pytrees of arrays; shlo compiles its flattened form with
`shlo.jax.jit` (cold: no cache), XLA compiles the same function (jax.jit). Every result leaf
must agree with XLA's within the model's tolerances before any time counts. Columns: run time
(median over interleaved rounds), shlo/XLA, cpu/XLA (process CPU time per call, all threads:
steadier than the run time on a loaded machine, where waits for the scheduler inflate the run
time), cold compile time of both (wall, and `cpu`: the compile's process CPU time, its
child iree-compile's included, over XLA's), where shlo's compile goes (`pipe s`: CPU seconds
of shlo's own pipeline, run again on its own; the rest is IREE's; `exes`: the dispatch
executables IREE compiled, 40-100 ms of CPU each on top of about 0.35 s), and the compile time for
the `vulkan` target (compiled only, not run). `--target vulkan` (or cuda) compiles and runs shlo
on that target instead, still against XLA on the CPU (its results come back to the host, timed).
"""
from __future__ import annotations

import dataclasses
import math
import re
import sys
import time
from typing import Any, Callable

import numpy as np


@dataclasses.dataclass(frozen=True)
class Model:
    name: str
    group: str
    build: Callable[[bool], tuple]          # small -> (fn, args): fn(*args) -> pytree
    rtol: float = 1e-3
    atol: float = 1e-3
    slow: bool = False                      # the test runs it only with -m slow


# ----------------------------------------------------------------- building blocks

def _rng():
    return np.random.default_rng(0)


def _normal(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _rmsnorm(x, g):
    import jax.numpy as jnp
    from jax import lax
    x32 = x.astype(jnp.float32)
    y = x32 * lax.rsqrt(jnp.mean(x32 * x32, axis=-1, keepdims=True) + 1e-6)
    return (y * g).astype(x.dtype)


def _layernorm(x, g, b):
    from jax import lax
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * g + b


def _attention(x, wqkv, wo, heads, mask=None):
    """Multi-head self-attention of x [B, T, D]; mask [T, T] (True: attend) or None."""
    import jax
    import jax.numpy as jnp
    b, t, d = x.shape
    qkv = (x @ wqkv).reshape(b, t, 3, heads, d // heads)
    q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(jnp.float32) / np.float32(np.sqrt(d // heads))
    if mask is not None:
        s = jnp.where(mask, s, np.float32(-1e30))
    p = jax.nn.softmax(s, axis=-1).astype(x.dtype)
    return jnp.einsum("bhqk,bkhd->bqhd", p, v).reshape(b, t, d) @ wo


def _lm_params(rng, vocab, d, layers, ff):
    return {"embed": _normal(rng, vocab, d),
            "layers": [{"norm1": np.ones(d, np.float32),
                        "wqkv": _normal(rng, d, 3 * d, scale=d ** -0.5),
                        "wo": _normal(rng, d, d, scale=d ** -0.5),
                        "norm2": np.ones(d, np.float32),
                        "w1": _normal(rng, d, ff, scale=d ** -0.5),
                        "w2": _normal(rng, ff, d, scale=ff ** -0.5)} for _ in range(layers)],
            "norm_f": np.ones(d, np.float32)}


def _lm_logits(params, tokens, heads, dtype):
    """A pre-norm causal transformer LM with a tied embedding: logits [B, T, vocab] in f32."""
    import jax
    import jax.numpy as jnp
    p = jax.tree.map(lambda a: a.astype(dtype), params)
    x = p["embed"][tokens]
    t = tokens.shape[1]
    mask = jnp.tril(jnp.ones((t, t), bool))
    for layer in p["layers"]:
        x = x + _attention(_rmsnorm(x, layer["norm1"]), layer["wqkv"], layer["wo"], heads, mask)
        h = jax.nn.gelu(_rmsnorm(x, layer["norm2"]) @ layer["w1"])
        x = x + h @ layer["w2"]
    return (_rmsnorm(x, p["norm_f"]) @ p["embed"].T).astype(jnp.float32)


def _cross_entropy(logits, labels):
    import jax
    import jax.numpy as jnp
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


def _adam(params, grads, m, v, step, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    import jax
    import jax.numpy as jnp
    step = step + 1
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    c1 = 1 - b1 ** step.astype(jnp.float32)
    c2 = 1 - b2 ** step.astype(jnp.float32)
    params = jax.tree.map(lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + eps),
                          params, m, v)
    return params, m, v, step


def _zeros_like(tree):
    import jax
    return jax.tree.map(np.zeros_like, tree)


# ----------------------------------------------------------------- the models

def transformer_train(small, dtype="float32"):
    """One Adam step of a 2-layer causal LM (d 128, vocab 512, batch 8x64, RMSNorm, GELU MLP,
    tied embedding, cross-entropy)."""
    import jax
    import jax.numpy as jnp
    vocab, d, layers, batch, seq = (512, 128, 2, 8, 64) if not small else (128, 64, 2, 2, 32)
    rng = _rng()
    params = _lm_params(rng, vocab, d, layers, 4 * d)
    tokens = rng.integers(0, vocab, (batch, seq + 1)).astype(np.int32)
    compute = jnp.bfloat16 if dtype == "bfloat16" else jnp.float32

    def step(params, m, v, count, tokens):
        def loss_fn(p):
            return _cross_entropy(_lm_logits(p, tokens[:, :-1], 4, compute), tokens[:, 1:])
        loss, grads = jax.value_and_grad(loss_fn)(params)
        params, m, v, count = _adam(params, grads, m, v, count)
        return loss, params, m, v, count

    return step, (params, _zeros_like(params), _zeros_like(params), np.int32(0), tokens)


def transformer_decode(small):
    """Greedy decoding of 32 tokens (48 when full size) with a KV cache: a while loop whose
    body runs a 2-layer LM on one token and writes the cache with dynamic_update_slice."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    vocab, d, layers, heads, batch, steps = (512, 128, 2, 4, 4, 48) if not small else \
        (128, 64, 2, 2, 2, 16)
    rng = _rng()
    params = _lm_params(rng, vocab, d, layers, 4 * d)
    first = rng.integers(0, vocab, (batch,)).astype(np.int32)
    dh = d // heads

    def decode(params, first):
        cache = jnp.zeros((layers, 2, batch, steps, heads, dh), jnp.float32)
        out = jnp.zeros((batch, steps), jnp.int32)

        def body(state):
            i, token, cache, out = state
            x = params["embed"][token]                             # [B, D]
            visible = jnp.arange(steps) <= i
            for n, layer in enumerate(params["layers"]):
                qkv = (_rmsnorm(x, layer["norm1"]) @ layer["wqkv"]).reshape(batch, 3, heads, dh)
                kv = qkv[:, 1:].transpose(1, 0, 2, 3)[None, :, :, None]   # [1, 2, B, 1, H, dh]
                cache = lax.dynamic_update_slice(cache, kv, (n, 0, 0, i, 0, 0))
                k, v = cache[n, 0], cache[n, 1]                       # [B, S, H, dh]
                s = jnp.einsum("bhd,bshd->bhs", qkv[:, 0], k) / np.float32(np.sqrt(dh))
                p = jax.nn.softmax(jnp.where(visible, s, np.float32(-1e30)), axis=-1)
                x = x + jnp.einsum("bhs,bshd->bhd", p, v).reshape(batch, d) @ layer["wo"]
                x = x + jax.nn.gelu(_rmsnorm(x, layer["norm2"]) @ layer["w1"]) @ layer["w2"]
            logits = _rmsnorm(x, params["norm_f"]) @ params["embed"].T
            token = jnp.argmax(logits, axis=-1).astype(jnp.int32)
            out = lax.dynamic_update_slice(out, token[:, None], (0, i))
            return i + 1, token, cache, out

        state = lax.while_loop(lambda s: s[0] < steps, body, (np.int32(0), first, cache, out))
        return state[3], state[2]

    return decode, (params, first)


def bert_encoder(small):
    """A 2-layer bidirectional encoder (post-LayerNorm, GELU) over batch 8 x 128 tokens, d 256."""
    import jax
    batch, seq, d, heads, layers = (8, 128, 256, 4, 2) if not small else (2, 32, 64, 2, 2)
    rng = _rng()
    params = [{"wqkv": _normal(rng, d, 3 * d, scale=d ** -0.5),
               "wo": _normal(rng, d, d, scale=d ** -0.5),
               "g1": np.ones(d, np.float32), "b1": np.zeros(d, np.float32),
               "w1": _normal(rng, d, 4 * d, scale=d ** -0.5),
               "w2": _normal(rng, 4 * d, d, scale=(4 * d) ** -0.5),
               "g2": np.ones(d, np.float32), "b2": np.zeros(d, np.float32)}
              for _ in range(layers)]
    x = _normal(rng, batch, seq, d)

    def encode(params, x):
        for p in params:
            x = _layernorm(x + _attention(x, p["wqkv"], p["wo"], heads), p["g1"], p["b1"])
            x = _layernorm(x + jax.nn.gelu(x @ p["w1"]) @ p["w2"], p["g2"], p["b2"])
        return x

    return encode, (params, x)


def _conv(x, w, stride=1):
    from jax import lax
    return lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def cnn_train(small, dtype="float32"):
    """One SGD-with-momentum step of a small ResNet (batch norm in training mode, max and
    average pooling, cross-entropy) on 16x32x32x3 images."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    batch, size, classes = (16, 32, 10) if not small else (4, 16, 10)
    rng = _rng()
    widths = [(3, 32), (32, 32), (32, 32), (32, 64), (64, 64)]
    params = {"convs": [_normal(rng, 3, 3, i, o, scale=(9 * i) ** -0.5) for i, o in widths],
              "gammas": [np.ones(o, np.float32) for _, o in widths],
              "betas": [np.zeros(o, np.float32) for _, o in widths],
              "dense": _normal(rng, 64, classes, scale=0.125)}
    images = _normal(rng, batch, size, size, 3)
    labels = rng.integers(0, classes, batch).astype(np.int32)
    compute = jnp.bfloat16 if dtype == "bfloat16" else jnp.float32

    def forward(p, x):
        stats = []

        def bn_relu(x, i, relu=True):
            x32 = x.astype(jnp.float32)
            mean, var = x32.mean((0, 1, 2)), x32.var((0, 1, 2))
            stats.append((mean, var))
            y = (x32 - mean) * lax.rsqrt(var + 1e-5) * p["gammas"][i] + p["betas"][i]
            return (jax.nn.relu(y) if relu else y).astype(compute)

        c = [w.astype(compute) for w in p["convs"]]
        x = bn_relu(_conv(x.astype(compute), c[0]), 0)
        x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        y = bn_relu(_conv(bn_relu(_conv(x, c[1]), 1), c[2]), 2, relu=False)
        x = jax.nn.relu(x + y)
        x = bn_relu(_conv(x, c[3], stride=2), 3)
        x = bn_relu(_conv(x, c[4]), 4)
        x = x.astype(jnp.float32).mean((1, 2))
        return x @ p["dense"], stats

    def step(params, momentum, images, labels):
        def loss_fn(p):
            logits, stats = forward(p, images)
            return _cross_entropy(logits, labels), stats
        (loss, stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        momentum = jax.tree.map(lambda m, g: 0.9 * m + g, momentum, grads)
        params = jax.tree.map(lambda p, m: p - 0.05 * m, params, momentum)
        return loss, params, momentum, stats

    return step, (params, _zeros_like(params), images, labels)


def lstm_scan(small):
    """value_and_grad of an LSTM over lax.scan (48 steps, batch 16, hidden 128) with a
    squared-error loss on a projection of every step's output."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    steps, batch, hidden, features = (48, 16, 128, 64) if not small else (12, 4, 32, 16)
    rng = _rng()
    params = {"wx": _normal(rng, features, 4 * hidden, scale=features ** -0.5),
              "wh": _normal(rng, hidden, 4 * hidden, scale=hidden ** -0.5),
              "b": np.zeros(4 * hidden, np.float32),
              "out": _normal(rng, hidden, features, scale=hidden ** -0.5)}
    xs = _normal(rng, steps, batch, features)
    ys = _normal(rng, steps, batch, features)

    def loss_fn(p, xs, ys):
        def cell(carry, x):
            h, c = carry
            i, f, g, o = jnp.split(x @ p["wx"] + h @ p["wh"] + p["b"], 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        zeros = jnp.zeros((batch, hidden), jnp.float32)
        _, hs = lax.scan(cell, (zeros, zeros), xs)
        return jnp.mean((hs @ p["out"] - ys) ** 2)

    return jax.value_and_grad(loss_fn), (params, xs, ys)


def _group_norm(x, g, b, groups=8):
    from jax import lax
    n, h, w, c = x.shape
    y = x.reshape(n, h, w, groups, c // groups)
    mean = y.mean((1, 2, 4), keepdims=True)
    var = y.var((1, 2, 4), keepdims=True)
    return ((y - mean) * lax.rsqrt(var + 1e-5)).reshape(x.shape) * g + b


def unet_block(small):
    """A diffusion U-Net stage: ResNet blocks (group norm, SiLU, 3x3 convs, a time embedding),
    a stride-2 downsampling conv, self-attention over the 8x8 latent, nearest upsampling and a
    skip concatenation."""
    import jax
    import jax.numpy as jnp
    batch, size, ch = (4, 16, 64) if not small else (2, 8, 32)
    rng = _rng()

    def conv_w(i, o, k=3):
        return _normal(rng, k, k, i, o, scale=(k * k * i) ** -0.5)

    def res_params(i, o):
        return {"g1": np.ones(i, np.float32), "b1": np.zeros(i, np.float32), "c1": conv_w(i, o),
                "t": _normal(rng, 4 * ch, o, scale=0.05), "g2": np.ones(o, np.float32),
                "b2": np.zeros(o, np.float32), "c2": conv_w(o, o),
                **({"skip": conv_w(i, o, 1)} if i != o else {})}

    params = {"res1": res_params(ch, ch), "down": conv_w(ch, 2 * ch),
              "res2": res_params(2 * ch, 2 * ch),
              "attn": {"g": np.ones(2 * ch, np.float32), "b": np.zeros(2 * ch, np.float32),
                       "wqkv": _normal(rng, 2 * ch, 6 * ch, scale=(2 * ch) ** -0.5),
                       "wo": _normal(rng, 2 * ch, 2 * ch, scale=(2 * ch) ** -0.5)},
              "res3": res_params(3 * ch, ch), "temb": _normal(rng, ch, 4 * ch, scale=ch ** -0.5)}
    x = _normal(rng, batch, size, size, ch)
    t = rng.uniform(0, 1000, batch).astype(np.float32)

    def resblock(p, x, temb):
        h = _conv(jax.nn.silu(_group_norm(x, p["g1"], p["b1"])), p["c1"])
        h = h + (temb @ p["t"])[:, None, None, :]
        h = _conv(jax.nn.silu(_group_norm(h, p["g2"], p["b2"])), p["c2"])
        return h + (_conv(x, p["skip"]) if "skip" in p else x)

    def block(p, x, t):
        freqs = jnp.exp(-np.log(10000.0) * jnp.arange(ch // 2, dtype=jnp.float32) / (ch // 2))
        temb = jax.nn.silu(jnp.concatenate([jnp.sin(t[:, None] * freqs),
                                            jnp.cos(t[:, None] * freqs)], -1) @ p["temb"])
        skip = resblock(p["res1"], x, temb)
        h = resblock(p["res2"], _conv(skip, p["down"], stride=2), temb)
        n, hh, ww, c = h.shape
        a = _group_norm(h, p["attn"]["g"], p["attn"]["b"]).reshape(n, hh * ww, c)
        h = h + _attention(a, p["attn"]["wqkv"], p["attn"]["wo"], 4).reshape(h.shape)
        h = jnp.repeat(jnp.repeat(h, 2, axis=1), 2, axis=2)
        return resblock(p["res3"], jnp.concatenate([h, skip], -1), temb)

    return block, (params, x, t)


def moe_layer(small):
    """A mixture-of-experts layer: softmax router, top-2 of 8 experts, tokens gathered into
    per-expert slots of fixed capacity (scatter of token indices, drops past capacity), a
    batched expert MLP, and a scatter-add of the gated outputs."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    tokens, d, experts, ff, k = (512, 128, 8, 256, 2) if not small else (64, 32, 4, 64, 2)
    capacity = int(1.25 * tokens * k / experts)
    rng = _rng()
    params = {"router": _normal(rng, d, experts, scale=d ** -0.5),
              "w1": _normal(rng, experts, d, ff, scale=d ** -0.5),
              "w2": _normal(rng, experts, ff, d, scale=ff ** -0.5)}
    x = _normal(rng, tokens, d)

    def layer(p, x):
        gates = jax.nn.softmax(x @ p["router"], axis=-1)
        weight, expert = lax.top_k(gates, k)                         # [T, k]
        expert, weight = expert.reshape(-1), weight.reshape(-1)      # [T*k], token-major
        token = jnp.repeat(jnp.arange(tokens), k)
        onehot = jax.nn.one_hot(expert, experts, dtype=jnp.int32)
        slot = jnp.sum((jnp.cumsum(onehot, axis=0) - 1) * onehot, axis=-1)
        kept = slot < capacity
        slot = jnp.where(kept, slot, capacity)                       # dropped: out of bounds
        index = jnp.full((experts, capacity), tokens, jnp.int32).at[expert, slot].set(
            token, mode="drop")
        h = jnp.take(x, index, axis=0, mode="fill", fill_value=0)     # [E, C, d]
        h = jnp.einsum("ecf,efd->ecd", jax.nn.gelu(jnp.einsum("ecd,edf->ecf", h, p["w1"])),
                       p["w2"])
        y = h[expert, jnp.minimum(slot, capacity - 1)] * (weight * kept)[:, None]
        return jnp.zeros_like(x).at[token].add(y), kept.mean()

    return layer, (params, x)


def nbody(small):
    """A leapfrog n-body simulation in a fori_loop (256 bodies, 40 steps), with softened
    accelerations through r**-1.5."""
    import jax.numpy as jnp
    from jax import lax
    n, steps = (256, 40) if not small else (64, 10)
    rng = _rng()
    pos, vel = _normal(rng, n, 3), _normal(rng, n, 3, scale=0.1)
    mass = rng.uniform(0.5, 1.5, n).astype(np.float32) / n

    def simulate(pos, vel, mass):
        def accel(pos):
            d = pos[None, :, :] - pos[:, None, :]                    # [i, j, 3]
            r2 = jnp.sum(d * d, -1) + np.float32(1e-2)
            return jnp.sum(d * (mass[None, :] * r2 ** -1.5)[..., None], axis=1)

        def step(_, state):
            pos, vel = state
            vel = vel + 0.005 * accel(pos)
            return pos + 0.01 * vel, vel
        pos, vel = lax.fori_loop(0, steps, step, (pos, vel))
        return pos, vel

    return simulate, (pos, vel, mass)


def sampling(small):
    """Nucleus sampling of 32 rows of 4096 logits: temperature, top-k 40, top-p 0.9 within
    the top k, jax.random.categorical."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    rows, vocab, k = (32, 4096, 40) if not small else (8, 512, 16)
    rng = _rng()
    logits = _normal(rng, rows, vocab, scale=3.0)
    key = np.asarray(jax.random.key_data(jax.random.key(1)))

    def sample(logits, key):
        values, index = lax.top_k(logits / np.float32(0.8), k)           # sorted, descending
        probs = jax.nn.softmax(values, axis=-1)
        before = jnp.cumsum(probs, axis=-1) - probs
        values = jnp.where(before < 0.9, values, -jnp.inf)
        choice = jax.random.categorical(jax.random.wrap_key_data(key), values, axis=-1)
        return jnp.take_along_axis(index, choice[:, None], axis=-1)[:, 0], \
            jax.nn.log_softmax(values, axis=-1)

    return sample, (logits, key)


def linalg(small):
    """A linear-algebra pipeline: Cholesky and a solve of a 256-row SPD system, eigh of 128
    rows, QR of 256x128, singular values of 128x64 (results free of sign choices)."""
    import jax.numpy as jnp
    n, m, e = (256, 128, 64) if not small else (64, 32, 16)
    rng = _rng()
    a = _normal(rng, n, n)
    b = _normal(rng, n, 4)
    c = _normal(rng, m, e)

    def pipeline(a, b, c):
        spd = a @ a.T / n + jnp.eye(n, dtype=a.dtype)
        chol = jnp.linalg.cholesky(spd)
        x = jnp.linalg.solve(spd, b)
        sym = spd[:m, :m]
        w = jnp.linalg.eigh(sym)[0]
        q, r = jnp.linalg.qr(a[:, :m])
        return chol, x, w, jnp.abs(jnp.diagonal(r)), q @ r, jnp.linalg.svd(c, compute_uv=False)

    return pipeline, (a, b, c)


def models() -> list[Model]:
    """The tier, in the order it runs."""
    import functools
    bf16 = "bfloat16"
    return [
        Model("transformer_train", "train", transformer_train, rtol=1e-3, atol=2e-4, slow=True),
        Model("transformer_train_bf16", "train", functools.partial(transformer_train, dtype=bf16),
              rtol=2e-2, atol=2e-3, slow=True),
        Model("transformer_decode", "loop", transformer_decode, rtol=1e-3, atol=1e-3),
        Model("bert_encoder", "forward", bert_encoder, rtol=1e-3, atol=1e-3),
        Model("cnn_train", "train", cnn_train, rtol=1e-3, atol=1e-4, slow=True),
        # bf16 weight gradients differ from the f32 program's by as much in XLA as in shlo:
        # 0.0036 vs 0.0046 (scale 0.03) at full size, up to 0.022 vs 0.018 (scale 0.06) at
        # the test's small size: the program's own rounding
        Model("cnn_train_bf16", "train", functools.partial(cnn_train, dtype=bf16),
              rtol=5e-2, atol=3e-2, slow=True),
        Model("lstm_scan", "scan", lstm_scan, rtol=1e-3, atol=1e-5),
        Model("unet_block", "forward", unet_block, rtol=1e-3, atol=1e-3, slow=True),
        Model("moe_layer", "forward", moe_layer, rtol=1e-3, atol=1e-4),
        Model("nbody", "loop", nbody, rtol=1e-3, atol=1e-3),
        Model("sampling", "sampling", sampling, rtol=1e-4, atol=1e-4),
        Model("linalg", "linalg", linalg, rtol=1e-3, atol=1e-3, slow=True),
    ]


# ----------------------------------------------------------------- running them

@dataclasses.dataclass
class Prepared:
    """A model lowered once: its flattened function and inputs, and XLA's callable."""
    model: Model
    flat: Callable                          # flat(*args) -> list of result arrays
    args: list
    xla_call: Callable
    xla_compile_ms: float
    xla_compile_cpu_ms: float = 0.0         # process CPU time of XLA's compile (all threads)

    def shlo_compile(self, target: str = "cpu", flags=(), cache: bool = True, without=()):
        """shlo's compiled function (`shlo.jax.jit`) for these inputs; `without`: names of
        passes left out of the target's default pipeline (a baseline to time against)."""
        import shlo.jax
        options = {"pipeline": pipeline_without(target, without)} if without else {}
        return shlo.jax.jit(self.flat, target=target, flags=list(flags), cache=cache,
                            **options).compile(*self.args)


def pipeline_without(target: str, passes) -> str:
    """The text of shlo's default pipeline for `target` without the named passes."""
    from ..pipelines import default_pass_list
    from ..pipelines.targets import get_target
    pipeline = default_pass_list(get_target(target).passes)
    for name in passes:
        if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", pipeline.text(", ")):
            raise ValueError(f"--without {name}: no such pass in the {target} pipeline")
        pipeline.remove(name)
    return pipeline.text(", ")


def prepare(model: Model, small: bool = False) -> Prepared:
    """Flatten the model's inputs and compile it with XLA (lowering and compile timed)."""
    import jax

    from ..runtime.devices import aligned

    fn, args = model.build(small)
    leaves, tree = jax.tree.flatten(args)
    leaves = [aligned(np.asarray(a)) for a in leaves]

    def flat(*leaves):
        return jax.tree.leaves(fn(*jax.tree.unflatten(tree, leaves)))
    start, cpu = time.perf_counter(), compile_cpu_seconds()
    compiled = jax.jit(flat, keep_unused=True).lower(*leaves).compile()
    xla_ms = (time.perf_counter() - start) * 1e3
    xla_cpu_ms = (compile_cpu_seconds() - cpu) * 1e3
    device_args = [jax.device_put(a) for a in leaves]
    return Prepared(model, flat, leaves, lambda: jax.block_until_ready(compiled(*device_args)),
                    xla_ms, xla_cpu_ms)


def compile_cpu_seconds() -> float:
    """CPU seconds of this process (all threads) and of its finished children (a child
    iree-compile, shlo.runtime.child_compile): a compile's CPU time is the difference."""
    import resource
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def executable_count(vmfb: bytes) -> int:
    """The dispatch executables in a .vmfb: distinct `..._dispatch_N` export names and data
    tiling's `_encoding_N_encode` relayouts."""
    return len(set(re.findall(rb"[\w$]+_dispatch_\d+|_encoding_\d+_encode", vmfb)))


def pipeline_cpu_seconds(text: str, target: str = "cpu") -> float:
    """Process CPU seconds of shlo's default pipeline for `target` on a lowered module (run
    again on its own: the part of a cold compile that is shlo's, not IREE's)."""
    from ..passes.pipeline import run_pipeline
    from ..pipelines import DEFAULT, target_pipeline
    from ..pipelines.targets import get_target
    from ..module_io import parse_module
    module = parse_module(text)
    pipeline = target_pipeline(DEFAULT, get_target(target))
    start = time.process_time()
    run_pipeline(module.operation, pipeline)
    return time.process_time() - start


def as_list(results) -> list:
    return list(results) if isinstance(results, (tuple, list)) else [results]


def disagreement(model: Model, got, want) -> str | None:
    """None when every result leaf of shlo's matches XLA's (integers exactly), else why not."""
    got, want = as_list(got), [np.asarray(w) for w in as_list(want)]
    if len(got) != len(want):
        return f"{len(got)} results, XLA has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        if g.shape != w.shape:
            return f"result {i}: shape {g.shape}, XLA's {w.shape}"
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        if np.issubdtype(w.dtype, np.integer) or w.dtype == bool:
            if not np.array_equal(g64, w64):
                return f"result {i}: {int(np.sum(g64 != w64))} of {w.size} integers differ"
        elif not np.allclose(g64, w64, rtol=model.rtol, atol=model.atol, equal_nan=True):
            worst = float(np.nanmax(np.abs(g64 - w64)))
            return f"result {i} {w.shape}: max abs difference {worst:.3g}"
    return None


def _first_line(e: Exception) -> str:
    return (str(e).splitlines() or [type(e).__name__])[0][:300]


def run_model(model: Model, *, rounds: int = 5, budget: float = 0.3, flags=(),
              vulkan: bool = True, small: bool = False, target: str = "cpu",
              without=(), other_device: bool = False) -> dict:
    """One row: checks shlo on `target` against XLA on the CPU, then the interleaved times and
    cold compile times (plus a vulkan compile-only column when `vulkan` and target is cpu).
    `without` (pass names): a second shlo contender compiled without them, checked and timed
    in the same rounds (`baseline_ms`, `ratio_baseline`: shlo / that baseline).
    `other_device` (cpu targets): the same .vmfb on the other CPU device (local-sync where shlo
    chose local-task, else local-task), checked and timed in the same rounds (`other_device`,
    `other_ms`, `ratio_other`, `cpu_ratio_other`: shlo's device / the other)."""
    import shlo
    from .bench_timing import time_interleaved

    p = prepare(model, small)
    row: dict[str, Any] = {"name": model.name, "group": model.group, "target": target,
           "xla_compile_ms": p.xla_compile_ms}
    if vulkan and target.split(":")[0] != "vulkan":
        start = time.perf_counter()
        try:
            p.shlo_compile("vulkan", cache=False)
            row["vulkan_compile_ms"] = (time.perf_counter() - start) * 1e3
        except shlo.Error as e:
            row["vulkan_error"] = _first_line(e)
    start, cpu_start = time.perf_counter(), compile_cpu_seconds()
    try:
        executable = p.shlo_compile(target, flags, cache=False)
    except shlo.Error as e:
        row["error"] = _first_line(e)
        return row
    row["shlo_compile_ms"] = (time.perf_counter() - start) * 1e3
    row["shlo_compile_cpu_ms"] = (compile_cpu_seconds() - cpu_start) * 1e3
    row["executables"] = executable_count(executable.executable.vmfb)
    row["pipeline_cpu_ms"] = pipeline_cpu_seconds(executable.text, target) * 1e3
    row["device"] = executable.executable.device        # local-sync: marked for one thread
    row["xla_compile_cpu_ms"] = p.xla_compile_cpu_ms
    contenders = {"shlo": lambda: executable(*p.args), "xla": p.xla_call}
    if without:
        baseline = p.shlo_compile(target, flags, cache=False, without=without)
        contenders["baseline"] = lambda: baseline(*p.args)
    if other_device and row["device"] in ("local-task", "local-sync"):
        from ..runtime.executable import Executable
        row["other_device"] = "local-sync" if row["device"] == "local-task" else "local-task"
        other = Executable(executable.executable.vmfb, device=row["other_device"])
        contenders["other"] = lambda: other(*p.args)
    want = contenders["xla"]()
    for name in contenders.keys() - {"xla"}:
        error = disagreement(model, contenders[name](), want)
        if error:
            row["error"] = error if name == "shlo" else f"on {row['other_device']}: {error}" \
                if name == "other" else f"without {', '.join(without)}: {error}"
            return row
    cpu: dict[str, float] = {}
    for name, (seconds, spread) in time_interleaved(contenders, rounds, budget, cpu).items():
        row[f"{name}_ms"], row[f"{name}_spread"] = seconds * 1e3, spread
        row[f"{name}_cpu_ms"] = cpu[name] * 1e3
    row["ratio_xla"] = row["shlo_ms"] / row["xla_ms"]
    row["cpu_ratio_xla"] = row["shlo_cpu_ms"] / row["xla_cpu_ms"]
    if without:
        row["ratio_baseline"] = row["shlo_ms"] / row["baseline_ms"]
        row["cpu_ratio_baseline"] = row["shlo_cpu_ms"] / row["baseline_cpu_ms"]
    if "other_ms" in row:
        row["ratio_other"] = row["shlo_ms"] / row["other_ms"]
        row["cpu_ratio_other"] = row["shlo_cpu_ms"] / row["other_cpu_ms"]
    row["compile_ratio"] = row["shlo_compile_ms"] / row["xla_compile_ms"]
    if row["xla_compile_cpu_ms"] > 0:
        row["compile_cpu_ratio"] = row["shlo_compile_cpu_ms"] / row["xla_compile_cpu_ms"]
    return row


def print_table(rows, out=None):
    out = out or sys.stdout
    targets = sorted({r.get("target", "cpu") for r in rows} - {"cpu"})
    if targets:
        print(f"shlo on {', '.join(targets)}; XLA on the cpu", file=out)
    print(f"{'model':<24} {'shlo ms':>8} {'XLA ms':>8} {'shlo/XLA':>8} {'spread':>6} "
          f"{'cpu/XLA':>7} {'compile s shlo/XLA':>19} {'ratio':>6} {'cpu':>5} {'pipe s':>6} "
          f"{'exes':>4} {'vulkan s':>8}",
          file=out)
    for r in rows:
        vulkan = f"{r['vulkan_compile_ms'] / 1e3:.1f}" if "vulkan_compile_ms" in r else \
            ("ERR" if "vulkan_error" in r else "-")
        if "error" in r:
            print(f"{r['name']:<24} ERROR: {r['error']}", file=out)
            continue
        spread = max(r["shlo_spread"], r["xla_spread"])
        cpu = f"{r['cpu_ratio_xla']:.2f}" if "cpu_ratio_xla" in r else "-"
        compile_cpu = f"{r['compile_cpu_ratio']:.1f}" if "compile_cpu_ratio" in r else "-"
        pipe = f"{r['pipeline_cpu_ms'] / 1e3:.2f}" if "pipeline_cpu_ms" in r else "-"
        exes = str(r.get("executables", "-"))
        print(f"{r['name']:<24} {r['shlo_ms']:>8.2f} {r['xla_ms']:>8.2f} {r['ratio_xla']:>8.2f} "
              f"{spread:>6.0%} {cpu:>7} "
              f"{r['shlo_compile_ms'] / 1e3:>9.1f}/{r['xla_compile_ms'] / 1e3:<9.1f}"
              f"{r['compile_ratio']:>6.1f} {compile_cpu:>5} {pipe:>6} {exes:>4} {vulkan:>8}",
              file=out)
    for r in rows:
        if "ratio_baseline" in r:
            cpu = (f", CPU time {r['cpu_ratio_baseline']:.2f}" if "cpu_ratio_baseline" in r
                   else "")
            print(f"{r['name']}: shlo / shlo without the named passes {r['ratio_baseline']:.2f} "
                  f"({r['baseline_ms']:.2f} ms{cpu})", file=out)
    for r in rows:
        if "ratio_other" in r:
            print(f"{r['name']}: {r['device']} / the same .vmfb on {r['other_device']}: wall "
                  f"{r['ratio_other']:.2f}, CPU time {r['cpu_ratio_other']:.2f} "
                  f"({r['other_ms']:.2f} ms, {r['other_cpu_ms']:.2f} ms of CPU)", file=out)
    one_thread = [r["name"] for r in rows if r.get("device") == "local-sync" and "error" not in r]
    if one_thread:
        print(f"on the calling thread (local-sync, runtime.abi.mark_small_loops): "
              f"{', '.join(one_thread)}", file=out)
    for r in rows:
        if "vulkan_error" in r:
            print(f"vulkan {r['name']}: {r['vulkan_error']}", file=out)
    ratios = [r["ratio_xla"] for r in rows if "ratio_xla" in r]
    if ratios:
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        compiles = [r["compile_ratio"] for r in rows if "compile_ratio" in r]
        cgeo = math.exp(sum(map(math.log, compiles)) / len(compiles))
        cpus = [r["compile_cpu_ratio"] for r in rows if "compile_cpu_ratio" in r]
        in_cpu = (f"; in CPU time {math.exp(sum(map(math.log, cpus)) / len(cpus)):.1f}x "
                  f"(worst {max(cpus):.1f}x)" if cpus else "")
        print(f"geomean shlo/XLA over {len(ratios)} models: {geo:.2f} (worst {max(ratios):.2f}); "
              f"cold compile geomean {cgeo:.1f}x XLA (worst {max(compiles):.1f}x){in_cpu}",
              file=out)


def main(args) -> int:
    """`shlo-bench --suite models` (args: shlo-bench's parsed arguments)."""
    import json
    suite = models()
    if args.list:
        for m in suite:
            print(f"{m.name:<26} {m.group:<10}")
        return 0
    if args.only:
        names = args.only.split(",")
        unknown = sorted(set(names) - {m.name for m in suite})
        if unknown:
            print(f"shlo-bench: unknown model(s) {', '.join(unknown)} (see --list)",
                  file=sys.stderr)
            return 2
        suite = [m for m in suite if m.name in names]
    from ..runtime.devices import release_device
    rows: list[dict] = []
    for m in suite:
        print(f"[{len(rows) + 1}/{len(suite)}] {m.name}", file=sys.stderr, flush=True)
        rows.append(run_model(m, rounds=args.rounds, budget=args.budget, flags=args.iree_flag,
                              vulkan=not args.no_vulkan, small=args.small, target=args.target))
        if args.target.split(":")[0] == "vulkan":
            release_device("vulkan")    # an open lavapipe device spins both cores (the next
                                        # model's compiles and XLA's times would share them)
    if args.json:
        with open(args.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print_table(rows)
    return 1 if any("error" in r for r in rows) else 0
