"""Whole jax programs for `shlo-fuzz --jax`: random stacks of layers (dense, mixed-precision
bf16 and int8-quantized dense, one under jax.checkpoint, one mapped over rows by lax.map,
layer norm, attention, a 1-D and a strided 2-D convolution, an FFT filter, max pooling, an
embedding lookup, dropout, and linear algebra: a solve, an inverse, Cholesky, a triangular
solve, QR, eigh, svd, slogdet), loops (a scan, a fori_loop counted by an argument, a while
loop that runs on its data), conditionals, cumulative sums and maxima, a linear recurrence by
associative_scan, sorts, top-k, argmax, rolls (by an argument, and per row under vmap),
gathers, scatter-adds and segment sums, run forward or as a training step (the loss and its
gradients), compiled by shlo with the defaults and checked against XLA.

The oracle is XLA: the function in f32, as shlo computes it, and in f64 (jax's x64 mode), also
with the float inputs moved by an f32 rounding and with the near ties of its sorts, top-k and
max pools the other way round (`flip_ties`). An output element of shlo is wrong where its
distance to the f64 value is more than TOLERANCE times its rounding noise (XLA's f32 distance
plus how far the inputs' rounding moves the f64 value) plus RTOL of the output's magnitude
(`Oracle`), an element's noise taken as at least its output's median: rounding at the
magnitude of a `cumsum` cancelled by a centering, or a gradient that cancels to 0 at the other
gradients' magnitude, is not an error (docs/fuzzing.md, "Whole jax programs").
"""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
from typing import Callable

import numpy as np

TOLERANCE = 16.0        # shlo's error may be this many times an element's rounding noise ...
RTOL = 1e-5             # ... plus this much of its output's magnitude (`Oracle`)
# A training step through a bf16 layer has gradients rounded to bf16 (jax's transpose of the
# bf16 product), a rounding that another f32 accumulation order can take either way: each
# element's noise then holds a quarter of bf16's relative rounding (2^-8), TOLERANCE of it
# 2 bf16 ulps
NARROW_LAYERS = frozenset({"bf16"})
NARROW_ROUNDING = 2.0 ** -10
BATCHES = (4, 8, 16, 32, 64, 128)
FEATURES = (16, 32, 64, 128, 256, 512)


@dataclasses.dataclass
class JaxProgram:
    """A random program: `fn(*args)` returns a list of f32 arrays; `blocks` names its layers;
    `sizes(*args)` gives the largest magnitude of each layer's activation. `text` and `want`
    (its lowering and XLA's results) are computed once, for every target."""
    name: str
    blocks: list
    train: bool
    fn: Callable
    args: list
    sizes: Callable
    # fn with its sorts, top-k and max pools ordering their inputs by `tie(x)` (`flip_ties`),
    # None when it has none of them
    ordered_by: Callable[[Callable], Callable] | None = None

    @functools.cached_property
    def text(self) -> str:
        return lowered(self)

    @functools.cached_property
    def want(self) -> "Oracle":
        return oracle(self)

    def describe(self) -> str:
        kind = "training step (loss, gradients)" if self.train else "forward"
        return f"{kind} of [{', '.join(self.blocks)}] on x{list(self.args[0].shape)}"


# --- layers: name -> (params(rng, F, B) -> dict of arrays, apply(p, x, k, idx, train) -> x) ------
def _dense_params(rng, f, b):
    return {"w": rng.standard_normal((f, f)) / np.sqrt(f), "b": rng.standard_normal(f) * 0.1}


def _dense(p, x, k, idx, train):
    import jax
    return jax.nn.gelu(x @ p["w"] + p["b"])


def _layernorm_params(rng, f, b):
    return {"g": 1 + rng.standard_normal(f) * 0.1, "b": rng.standard_normal(f) * 0.1}


def _layernorm(p, x, k, idx, train):
    import jax.numpy as jnp
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5) * p["g"] + p["b"]


def _attention_params(rng, f, b):
    return {"wq": rng.standard_normal((f, f)) / np.sqrt(f),
            "wk": rng.standard_normal((f, f)) / np.sqrt(f)}


def _attention(p, x, k, idx, train):
    """Each row a sequence of 8 tokens of f // 8 features; causal softmax attention."""
    import jax
    import jax.numpy as jnp
    b, f = x.shape
    q, kk = (x @ p[w] for w in ("wq", "wk"))
    seq = lambda v: v.reshape(b, 8, f // 8)    # noqa: E731
    scores = jnp.einsum("btd,bsd->bts", seq(q), seq(kk)) / np.sqrt(f // 8)
    mask = np.tril(np.ones((8, 8), bool))
    weights = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1)
    return x + jnp.einsum("bts,bsd->btd", weights, seq(x)).reshape(b, f)


def _conv_params(rng, f, b):
    return {"w": rng.standard_normal((3, 4, 4)) / np.sqrt(12)}


def _conv(p, x, k, idx, train):
    """A 'SAME' convolution of kernel 3 along f // 4 positions of 4 channels."""
    import jax
    b, f = x.shape
    y = jax.lax.conv_general_dilated(x.reshape(b, f // 4, 4), p["w"], (1,), "SAME",
                                     dimension_numbers=("NWC", "WIO", "NWC"))
    return jax.numpy.tanh(y.reshape(b, f))


def _scan_params(rng, f, b):
    return {"u": rng.standard_normal((f, f)) / np.sqrt(f) * 0.5}


def _scan(p, x, k, idx, train):
    """An RNN over the rows: h = tanh(h @ u + row), the states stacked."""
    import jax
    import jax.numpy as jnp

    def cell(h, row):
        h = jnp.tanh(h @ p["u"] + row)
        return h, h
    return jax.lax.scan(cell, jnp.zeros(x.shape[1], x.dtype), x)[1]


def _loop(p, x, k, idx, train):
    """x <- x / 2 + tanh(x) / 2, k % 3 + 1 times (a fixed 2 in a training step: reverse mode
    needs a known trip count)."""
    import jax
    import jax.numpy as jnp
    trips = 2 if train else k % 3 + 1
    return jax.lax.fori_loop(0, trips, lambda i, v: v * 0.5 + jnp.tanh(v) * 0.5, x)


def _cond(p, x, k, idx, train):
    import jax
    import jax.numpy as jnp
    return jax.lax.cond(k % 2 == 0, lambda v: jnp.sin(v), lambda v: v * jax.nn.sigmoid(v), x)


def _switch(p, x, k, idx, train):
    import jax
    import jax.numpy as jnp
    return jax.lax.switch(k % 3, [lambda v: v, lambda v: jnp.cos(v), lambda v: -v], x)


def _cumsum(p, x, k, idx, train):
    return x.cumsum(axis=1) / np.sqrt(x.shape[1])


def _sort(p, x, k, idx, train):
    import jax.numpy as jnp
    return jnp.sort(x, axis=1)[:, ::-1] * 0.5 + x * 0.5


def _top_k(p, x, k, idx, train):
    import jax
    import jax.numpy as jnp
    top = jax.lax.top_k(x, 4)[0]
    return x - jnp.mean(top, axis=1, keepdims=True)


def _gather(p, x, k, idx, train):
    return x[idx] * 0.5 + x * 0.5


def _scatter(p, x, k, idx, train):
    import jax.numpy as jnp
    return jnp.zeros_like(x).at[idx].add(x) * 0.5 + x * 0.5


def _center(p, x, k, idx, train):
    return x - x.mean(axis=0)


def _softmax(p, x, k, idx, train):
    import jax
    return jax.nn.log_softmax(x, axis=-1)


def _pool(p, x, k, idx, train):
    """A max over windows of 3 features, stride 1 ('SAME')."""
    import jax
    return jax.lax.reduce_window(x, -np.inf, jax.lax.max, (1, 3), (1, 1), "SAME")


def flip_ties(parity: int) -> Callable:
    """Keys that order x (B, F) along its rows as x does, except that neighbours in each row's
    order closer than TIE_SPREAD of their magnitude change places: rank 2j and 2j + 1
    (`parity` 0) or 2j + 1 and 2j + 2 (1) move towards each other by that much."""
    import jax
    import jax.numpy as jnp

    def keys(x):
        rank = jnp.argsort(jnp.argsort(x, axis=1, stable=True), axis=1, stable=True)
        toward = jnp.where(rank % 2 == parity, 1.0, -1.0).astype(x.dtype)
        return jax.lax.stop_gradient(x + TIE_SPREAD * jnp.abs(x) * toward)
    return keys


def _sort_by(p, x, k, idx, train, tie):
    import jax.numpy as jnp
    order = jnp.argsort(tie(x), axis=1, stable=True)[:, ::-1]
    return jnp.take_along_axis(x, order, axis=1) * 0.5 + x * 0.5


def _top_k_by(p, x, k, idx, train, tie):
    import jax
    import jax.numpy as jnp
    top = jnp.take_along_axis(x, jax.lax.top_k(tie(x), 4)[1], axis=1)
    return x - jnp.mean(top, axis=1, keepdims=True)


def _pool_by(p, x, k, idx, train, tie):
    import jax.numpy as jnp

    def windows(v):             # each feature's window of 3 ('SAME': -inf past the ends)
        pad = jnp.full((v.shape[0], 1), -jnp.inf, v.dtype)
        return jnp.stack([jnp.concatenate([pad, v[:, :-1]], 1), v,
                          jnp.concatenate([v[:, 1:], pad], 1)], 1)
    values = windows(x)
    choice = jnp.argmax(windows(tie(x)), axis=1)
    return jnp.take_along_axis(values, choice[:, None], axis=1)[:, 0]


def _argmax_by(p, x, k, idx, train, tie):
    """x plus the one-hot of each row's largest `tie(x)`."""
    import jax
    import jax.numpy as jnp
    return x + jax.nn.one_hot(jnp.argmax(tie(x), axis=1), x.shape[1], dtype=x.dtype)


def _embedding_params(rng, f, b):
    return {"table": rng.standard_normal((3 * b, f)) * 0.5}


def _embedding(p, x, k, idx, train):
    """Rows of a table looked up by `idx` and `k`, added."""
    return x + p["table"][idx * 3 + k % 3]


def _dropout(p, x, k, idx, train):
    """Half the elements zeroed by jax.random's threefry bits, keyed by `k`."""
    import jax
    import jax.numpy as jnp
    keep = jax.random.bernoulli(jax.random.key(k), np.float32(0.5), x.shape)   # (f32 bits in x64 too)
    return jnp.where(keep, x * 2, 0.0)


def _spd_params(rng, f, b):
    """A well-conditioned symmetric positive definite matrix of min(f, 64) rows."""
    m = min(f, 64)
    a = rng.standard_normal((m, m)) / np.sqrt(m)
    return {"a": a @ a.T + np.eye(m)}


def _separated_params(rng, f, b):
    """A symmetric matrix of min(f, 64) rows whose eigenvalues lie in [1, 3] at least 1/m
    apart: eigh's gradient divides by their gaps, and a random matrix's (2e-4) make its f32
    rounding, XLA's as much as shlo's, far larger than the noise the oracle samples."""
    m = min(f, 64)
    q = np.linalg.qr(rng.standard_normal((m, m)))[0]
    values = 1 + 2 * (np.arange(m) + 0.25 + 0.5 * rng.random(m)) / m
    return {"a": (q * values) @ q.T}


def _blocks(x, m):
    """`x` (B, F) as rows of m features (F is a multiple of m)."""
    return x.reshape(-1, m)


def _solve(p, x, k, idx, train):
    """x's rows of m features solved against the matrix (LU: jnp.linalg.solve)."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    return jnp.linalg.solve(p["a"], _blocks(x, m).T).T.reshape(x.shape)


def _cholesky(p, x, k, idx, train):
    """x's rows of m features times the matrix's Cholesky factor."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    return (_blocks(x, m) @ jnp.linalg.cholesky(p["a"]).T / np.sqrt(m)).reshape(x.shape)


def _eigh(p, x, k, idx, train):
    """x's rows of m features times tanh of the symmetric matrix (through its eigenvectors)."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    w, v = jnp.linalg.eigh(p["a"])
    return (_blocks(x, m) @ ((v * jnp.tanh(w)) @ v.T)).reshape(x.shape)


def _svd(p, x, k, idx, train):
    """x's rows of m features, half of them projected onto their top m/2 right singular
    vectors (a projection: the same whatever the vectors' signs)."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    rows = _blocks(x, m)
    top = jnp.linalg.svd(rows, full_matrices=False)[2][: m // 2]
    return (rows @ top.T @ top + rows * 0.5).reshape(x.shape)


def _qr(p, x, k, idx, train):
    """x's rows of m features times the matrix's Q, its columns signed as R's diagonal."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    q, r = jnp.linalg.qr(p["a"])
    return (_blocks(x, m) @ (q * jnp.sign(jnp.diagonal(r)))).reshape(x.shape)


def _triangular(p, x, k, idx, train):
    """x's rows of m features solved against the matrix's Cholesky factor (a triangular
    solve)."""
    import jax
    import jax.numpy as jnp
    m = p["a"].shape[0]
    lower = jnp.linalg.cholesky(p["a"])
    return jax.scipy.linalg.solve_triangular(lower, _blocks(x, m).T, lower=True).T.reshape(x.shape)


def _slogdet(p, x, k, idx, train):
    """x scaled by the log-determinant (LU) of the matrix plus the Gram matrix of x's first m
    rows of m features."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    rows = _blocks(x, m)
    logdet = jnp.linalg.slogdet(p["a"] + rows[:m].T @ rows[:m] / rows.shape[0])[1]
    return x * jnp.tanh(logdet / m)


def _while(p, x, k, idx, train):
    """x <- 0.75 x while its largest magnitude is over 1, at most 8 times: a while loop that
    runs on its data (a fixed 2 in a training step: reverse mode needs a known trip count)."""
    import jax
    import jax.numpy as jnp
    if train:
        return jax.lax.fori_loop(0, 2, lambda i, v: v * 0.75, x)
    big = lambda c: (jnp.max(jnp.abs(c[1])) > 1.0) & (c[0] < 8)     # noqa: E731
    return jax.lax.while_loop(big, lambda c: (c[0] + 1, c[1] * 0.75), (0, x))[1]


def _fft(p, x, k, idx, train):
    """Each row's spectrum (rfft) damped towards high frequencies, and back (irfft)."""
    import jax.numpy as jnp
    f = x.shape[1]
    spectrum = jnp.fft.rfft(x, axis=1)
    return jnp.fft.irfft(spectrum * np.exp(-np.arange(spectrum.shape[1]) * 4.0 / f), n=f, axis=1)


def _cummax(p, x, k, idx, train):
    import jax
    return jax.lax.cummax(x, axis=1) * 0.5 + x * 0.5


def _nudged(x, tie):
    """x, or with `tie` (flip_ties) its values moved by their rounding noise, in value only:
    a value within that of a rounding tie rounds the other way (the oracle's flipped runs)."""
    import jax
    return x if tie is None else x + jax.lax.stop_gradient(tie(x) - x)


def _bf16(p, x, k, idx, train, tie=None):
    """A mixed-precision dense layer: bf16 operands, f32 products (preferred_element_type)."""
    import jax
    import jax.numpy as jnp
    y = jnp.dot(_nudged(x, tie).astype(jnp.bfloat16), p["w"].astype(jnp.bfloat16),
                preferred_element_type=jnp.float32)
    return jax.nn.relu(y + p["b"]) + x * 0.1


def _int8(p, x, k, idx, train, tie=None):
    """A quantized dense layer: x and the weights rounded to int8 at their own scales, an
    int8 x int8 -> int32 product, scaled back (plus x, which the gradient flows through)."""
    import jax
    import jax.numpy as jnp
    quantized = lambda v, scale: jnp.clip(jnp.round(v / scale), -127, 127).astype(jnp.int8)  # noqa: E731
    xs = jax.lax.stop_gradient(jnp.max(jnp.abs(x)) / 127)
    ws = jax.lax.stop_gradient(jnp.max(jnp.abs(p["w"])) / 127)
    product = jax.lax.dot(quantized(_nudged(x, tie), xs), quantized(p["w"], ws),
                          preferred_element_type=jnp.int32)
    return product.astype(jnp.float32) * (xs * ws) + x


def _remat(p, x, k, idx, train):
    """A dense layer under jax.checkpoint (its activations recomputed in the backward pass,
    behind optimization barriers)."""
    import jax
    return jax.checkpoint(lambda x, w: jax.nn.gelu(x @ w) + x)(x, p["w"])


def _roll(p, x, k, idx, train):
    """Each row rolled by k (a run-time shift) features."""
    import jax.numpy as jnp
    return jnp.roll(x, k % x.shape[1], axis=1) * 0.5 + x * 0.5


def _argmax(p, x, k, idx, train):
    """x plus the one-hot of each row's largest feature."""
    return _argmax_by(p, x, k, idx, train, lambda v: v)


def _conv2d_params(rng, f, b):
    return {"w": rng.standard_normal((3, 3, 4, 4)) / np.sqrt(36)}


def _conv2d(p, x, k, idx, train):
    """A 'SAME' 3x3 convolution, stride 2 down the rows, of an image of f // 16 by 4 pixels of
    4 channels (NHWC), its rows repeated back up to f // 16 (a CNN's downsampling: the
    gradient dilates its input)."""
    import jax
    import jax.numpy as jnp
    b, f = x.shape
    h = f // 16
    y = jax.lax.conv_general_dilated(x.reshape(b, h, 4, 4), p["w"], (2, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jnp.tanh(jnp.repeat(y, 2, axis=1)[:, :h].reshape(b, f)) + x * 0.5


def _linear_scan(p, x, k, idx, train):
    """h_t = a_t h_(t-1) + x_t along each row with a = sigmoid(x), by
    jax.lax.associative_scan (a linear recurrence, as state-space models compute it)."""
    import jax
    a = jax.nn.sigmoid(x)
    combine = lambda u, v: (u[0] * v[0], v[0] * u[1] + v[1])    # noqa: E731
    return jax.lax.associative_scan(combine, (a, x), axis=1)[1] * 0.5


def _segment_sum(p, x, k, idx, train):
    """Each row's features summed into f // 4 segments that `k` chooses
    (jax.ops.segment_sum along the features: a scatter-add), read back per feature."""
    import jax
    import jax.numpy as jnp
    f = x.shape[1]
    segment = (jnp.arange(f) * 5 + k) % (f // 4)
    sums = jax.ops.segment_sum(x.T, segment, num_segments=f // 4).T
    return sums[:, segment] * 0.5 + x * 0.5


def _inv(p, x, k, idx, train):
    """x's rows of m features times the matrix's inverse (jnp.linalg.inv)."""
    import jax.numpy as jnp
    m = p["a"].shape[0]
    return (_blocks(x, m) @ jnp.linalg.inv(p["a"])).reshape(x.shape) / 2


def _row_map(p, x, k, idx, train):
    """A dense layer applied row by row by jax.lax.map (a loop that slices and updates)."""
    import jax
    import jax.numpy as jnp
    return jax.lax.map(lambda row: jnp.tanh(row @ p["w"]) + row * 0.5, x)


def _row_roll(p, x, k, idx, train):
    """Row i rolled by idx[i] features (a shift per row under jax.vmap: a gather)."""
    import jax
    import jax.numpy as jnp
    return jax.vmap(jnp.roll)(x, idx) * 0.5 + x * 0.5


def _none(rng, f, b):
    return {}


LAYERS: dict[str, tuple[Callable, Callable]] = {
    "dense": (_dense_params, _dense), "layernorm": (_layernorm_params, _layernorm),
    "attention": (_attention_params, _attention), "conv": (_conv_params, _conv),
    "scan": (_scan_params, _scan), "loop": (_none, _loop), "cond": (_none, _cond),
    "switch": (_none, _switch), "cumsum": (_none, _cumsum), "sort": (_none, _sort),
    "top_k": (_none, _top_k), "gather": (_none, _gather), "scatter": (_none, _scatter),
    "center": (_none, _center), "log_softmax": (_none, _softmax), "pool": (_none, _pool),
    "embedding": (_embedding_params, _embedding), "dropout": (_none, _dropout),
    "solve": (_spd_params, _solve), "cholesky": (_spd_params, _cholesky),
    "eigh": (_separated_params, _eigh), "svd": (_spd_params, _svd), "qr": (_spd_params, _qr),
    "triangular": (_spd_params, _triangular), "slogdet": (_spd_params, _slogdet),
    "while": (_none, _while), "fft": (_none, _fft), "cummax": (_none, _cummax),
    "bf16": (_dense_params, _bf16), "int8": (_dense_params, _int8),
    "remat": (_dense_params, _remat), "roll": (_none, _roll), "argmax": (_none, _argmax),
    "conv2d": (_conv2d_params, _conv2d), "linear_scan": (_none, _linear_scan),
    "segment_sum": (_none, _segment_sum), "inv": (_spd_params, _inv),
    "row_map": (_dense_params, _row_map), "row_roll": (_none, _row_roll),
}
# the first seed that draws each layer added since seed 10 (an earlier seed draws the programs
# docs/fuzzing.md recorded for it); a seed that is not a number draws every layer
SINCE_SEED = {name: 18 for name in ("conv2d", "linear_scan", "segment_sum", "inv", "row_map",
                                    "row_roll")}


def layer_names(seed: str) -> list[str]:
    """The layers that programs of `seed` ("seed:index") draw from, sorted."""
    head = str(seed).split(":")[0]
    first = int(head) if head.isdigit() else None
    return sorted(n for n in LAYERS if first is None or SINCE_SEED.get(n, 0) <= first)


# the layers whose result or gradient follows an order of their input, or a rounding to a
# narrow type (a value one f32 rounding from a bf16 or int8 rounding tie may round either way):
# for the oracle, each computed again with nearly tied inputs the other way (`Oracle`)
ORDERED: dict[str, Callable] = {"sort": _sort_by, "top_k": _top_k_by, "pool": _pool_by,
                                "argmax": _argmax_by, "bf16": _bf16, "int8": _int8}
TIE_SPREAD = 256 * float(np.finfo(np.float32).eps)


def random_program(seed: str, layers: list | None = None,
                   train: bool | None = None) -> JaxProgram:
    """A program of 2-6 layers (deterministic in `seed`), its inputs drawn with it; `layers`
    and `train` choose its layers and whether it is a training step instead."""
    import jax
    import jax.numpy as jnp
    rng = random.Random(f"shlo-fuzz-jax:{seed}")
    nrng = np.random.default_rng(rng.randrange(1 << 63))
    b, f = rng.choice(BATCHES), rng.choice(FEATURES)
    names = [rng.choice(layer_names(seed)) for _ in range(rng.randint(2, 6))]
    train = rng.random() < 0.5 if train is None else train
    names = names if layers is None else list(layers)    # (drawn anyway: the later draws stay)
    params = [{n: np.asarray(v, np.float32) for n, v in LAYERS[name][0](nrng, f, b).items()}
              for name in names]
    x = nrng.standard_normal((b, f)).astype(np.float32)
    k = np.int32(nrng.integers(0, 1 << 16))
    idx = nrng.integers(0, b, b).astype(np.int32)
    leaves, tree = jax.tree.flatten(params)

    def activations(params, x, k, idx, tie=None):
        found = []
        for name, p in zip(names, params):
            x = LAYERS[name][1](p, x, k, idx, train) if tie is None or name not in ORDERED \
                else ORDERED[name](p, x, k, idx, train, tie)
            found.append(x)
        return found

    def sizes(x, k, idx, *leaves):
        ps = jax.tree.unflatten(tree, leaves)
        return [jnp.max(jnp.abs(a)) for a in activations(ps, x, k, idx)]

    def ordered_by(tie):
        def fn(x, k, idx, *leaves):
            ps = jax.tree.unflatten(tree, leaves)
            if not train:
                return [activations(ps, x, k, idx, tie)[-1]]
            loss, grads = jax.value_and_grad(
                lambda ps: jnp.mean(activations(ps, x, k, idx, tie)[-1] ** 2))(ps)
            return [loss, *jax.tree.leaves(grads)]
        return fn
    return JaxProgram(str(seed), names, train, ordered_by(None), [x, k, idx, *leaves], sizes,
                      ordered_by if ORDERED.keys() & set(names) else None)


# --- checking ---------------------------------------------------------------------------------
def lowered(program: JaxProgram) -> str:
    """The program's StableHLO text, as jax lowers it (every argument kept)."""
    import jax
    return jax.jit(program.fn, keep_unused=True).lower(*program.args).as_text()


@dataclasses.dataclass
class Oracle:
    """XLA's outputs in f32 and f64, each element's rounding noise (XLA's f32 error plus how
    far the f64 result moves when the float inputs move by an f32 rounding, or when the sorts,
    top-k, max pools and argmax take nearly tied inputs the other way round or the bf16 and
    int8 layers round values near a rounding tie the other way, plus the bf16 rounding of a
    training step's gradients through a bf16 layer), and each output's
    magnitude: its largest f64 value (a gradient's: the largest of any gradient, as a
    gradient that cancels to 0 is rounded at the others' magnitude) times the program's
    cancellation (its layers' largest activation over its last one's, at least 1)."""
    f32: list
    f64: list
    noise: list
    magnitudes: list


def oracle(program: JaxProgram) -> Oracle:
    """XLA's results for `program` (the float inputs widened to f64 in jax's x64 mode)."""
    import jax
    f32 = [np.asarray(o) for o in jax.jit(program.fn, backend="cpu")(*program.args)]
    wide = [a.astype(np.float64) if a.dtype == np.float32 else a for a in program.args]
    rng = np.random.default_rng(0)
    eps = float(np.finfo(np.float32).eps)
    with jax.enable_x64(True):
        run = jax.jit(program.fn, backend="cpu")
        f64 = [np.asarray(o, np.float64) for o in run(*wide)]
        moved = [[np.asarray(o, np.float64) for o in run(*[
            a * (1 + rng.uniform(-eps, eps, a.shape)) if a.dtype == np.float64 else a
            for a in wide])] for _ in range(2)]
        if program.ordered_by is not None:        # near ties the other way round
            moved += [[np.asarray(o, np.float64) for o in jax.jit(
                program.ordered_by(flip_ties(parity)), backend="cpu")(*wide)]
                for parity in (0, 1)]
        sizes = [float(v) for v in jax.jit(program.sizes, backend="cpu")(*wide)]
    narrow = NARROW_ROUNDING if program.train and NARROW_LAYERS & set(program.blocks) else 0.0
    noise = [np.abs(np.asarray(a, np.float64) - b)
             + np.max([np.abs(m[i] - b) for m in moved], axis=0) + narrow * np.abs(b)
             for i, (a, b) in enumerate(zip(f32, f64))]
    finite = [v for v in sizes if np.isfinite(v)]
    last = sizes[-1] if np.isfinite(sizes[-1]) and sizes[-1] > 0 else 0.0
    cancellation = max(max(finite) / last if finite and last else 1.0, 1.0)
    largest = [float(np.abs(b[np.isfinite(b)]).max(initial=0.0)) for b in f64]
    if program.train:           # the loss, then the gradients
        largest[1:] = [max(largest[1:], default=0.0)] * (len(largest) - 1)
    return Oracle(f32, f64, noise, [m * cancellation for m in largest])


def compare(got: list, want: Oracle) -> str | None:
    """Why shlo's outputs `got` are wrong against XLA's, else None."""
    if len(got) != len(want.f32):
        return f"{len(got)} outputs, XLA gives {len(want.f32)}"
    for i, (g, a, b, noise, magnitude) in enumerate(zip(got, want.f32, want.f64, want.noise,
                                                         want.magnitudes)):
        g = np.asarray(g)
        if g.shape != a.shape or g.dtype != a.dtype:
            return f"output {i}: {g.dtype}{list(g.shape)}, XLA gives {a.dtype}{list(a.shape)}"
        g, a, b = (np.asarray(v, np.float64) for v in (g, a, b))
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(noise)
        if not np.array_equal(np.isfinite(g) | ~finite, np.ones_like(finite)):
            return f"output {i}: {int((~np.isfinite(g) & finite).sum())} non-finite elements"
        err = np.abs(g - b)[finite]
        # an element's noise is at least its output's median: where products mix every
        # element (the gradient of an eigh), an element's few samples of noise can miss it
        noise = noise[finite]
        noise = np.maximum(noise, np.median(noise)) if noise.size else noise
        allowed = TOLERANCE * noise + RTOL * magnitude
        bad = err > allowed
        if bad.any():
            worst = int(np.argmax(err - allowed))
            return (f"output {i}: {int(bad.sum())} of {g.size} elements off, worst "
                    f"{err[worst]:.3g} (rounding noise {noise[worst]:.3g}, "
                    f"magnitude {magnitude:.3g})")
    return None


def _compare_calls(result, want: Oracle) -> str | None:
    """`compare` of a worker's first call and, where it differs, its second call."""
    why = compare(result.outputs, want)
    if why is None and result.repeat is not None:
        why = compare(result.repeat, want)
        why = why and f"on the second call: {why}"
    return why


def check(program: JaxProgram, target: str, worker) -> tuple[str, str] | None:
    """(kind, why) where shlo fails `program` on `target` (an error, a crash, a timeout, a
    mismatch, on either call), else None."""
    r = worker.call(target, program.text, program.args)
    if r.status != "ok":
        return r.status, r.error
    why = _compare_calls(r, program.want)
    return ("mismatch", why) if why else None


def save(directory: str, program: JaxProgram, target: str, kind: str, why: str) -> None:
    """A reproducer: the program's StableHLO, inputs and XLA's outputs, replayed by
    `shlo-fuzz --replay`."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "program.mlir"), "w") as f:
        f.write(program.text)
    want = program.want
    for prefix, arrays in (("input", program.args), ("xla_f32", want.f32),
                           ("xla_f64", want.f64), ("noise", want.noise)):
        for i, a in enumerate(arrays):
            np.save(os.path.join(directory, f"{prefix}_{i}.npy"), np.asarray(a))
    meta = {"kind": "jax", "target": target, "finding": kind, "detail": why,
            "program": program.describe(), "inputs": len(program.args),
            "outputs": len(want.f32), "magnitudes": want.magnitudes}
    with open(os.path.join(directory, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    with open(os.path.join(directory, "README.txt"), "w") as f:
        f.write(f"{kind} on {target}: {why}\nprogram: {program.describe()}\n"
                f"found by shlo-fuzz --jax --seed S --first I --count 1 (S:I = {program.name})\n"
                f"replay: shlo-fuzz --replay {directory}\n")


def replay(directory: str, target: str, worker) -> str | None:
    """None when the jax reproducer in `directory` passes on `target`, else why not."""
    with open(os.path.join(directory, "meta.json")) as f:
        meta = json.load(f)
    with open(os.path.join(directory, "program.mlir")) as f:
        text = f.read()
    load = lambda prefix, n: [np.load(os.path.join(directory, f"{prefix}_{i}.npy"))  # noqa: E731
                              for i in range(n)]
    r = worker.call(target, text, load("input", meta["inputs"]))
    if r.status != "ok":
        return f"{r.status}: {r.error}"
    n = meta["outputs"]
    return _compare_calls(r, Oracle(load("xla_f32", n), load("xla_f64", n), load("noise", n),
                                    meta["magnitudes"]))


def run(count: int, seed: int, targets: list, out: str | None, worker, first: int = 0,
        progress=None) -> dict:
    """Check `count` programs (numbered from `first`) on `targets`; counts and a summary. A
    program XLA cannot run (no oracle) is skipped and counted."""
    import jax
    counts = dict(programs=0, mismatches=0, crashes=0, errors=0, skipped=0)
    plural = {"mismatch": "mismatches", "crash": "crashes", "timeout": "crashes",
              "error": "errors"}
    try:
        for i in range(first, first + count):
            program = random_program(f"{seed}:{i}")
            try:
                program.want
            except jax.errors.JaxRuntimeError as e:    # XLA cannot run it: no oracle
                counts["skipped"] += 1
                print(f"skipped (program {seed}:{i}): XLA fails: {str(e).splitlines()[0]}\n"
                      f"  {program.describe()}", flush=True)
                continue
            for target in targets:
                found = check(program, target, worker)
                if found:
                    kind, why = found
                    counts[plural[kind]] += 1
                    print(f"{kind} on {target} (program {seed}:{i}): {why}\n"
                          f"  {program.describe()}", flush=True)
                    if out:
                        save(os.path.join(out, f"jax-{kind}-{target}-{seed}-{i}"), program,
                             target, kind, why)
            counts["programs"] += 1
            if progress:
                progress.update(counts["programs"], counts)
    except KeyboardInterrupt:
        pass
    finally:
        worker.close()
    summary = (f"{counts['programs']} jax programs, {counts['mismatches']} mismatches, "
               f"{counts['crashes']} crashes, {counts['errors']} errors"
               + (f", {counts['skipped']} skipped (XLA fails)" if counts["skipped"] else ""))
    return {**counts, "summary": summary}
