"""shlo-unroll-scan-loops: counted loops that update a carried tensor run up to 24 steps a
trip (fewer where the unrolled body would pass `max-ops`), and give XLA's values (scans with
stacked outputs, a fori_loop from a non-zero start, a step that reads the buffer it writes);
loops that do not count, or whose trip count no factor up to 24 divides, loops that update no
carried tensor, and loops that also carry the tensor before its update (IREE's compiler crashed
on them unrolled), stay as they are."""
import numpy as np
import pytest

import shlo


def _programs():
    import jax.numpy as jnp
    from jax import lax

    def scan(x):
        def body(c, _):
            c = jnp.tanh(c * 1.01 + 0.5)
            return c, (c, c * 2.0, c - 1.0)
        return lax.scan(body, x, None, length=48)

    def reads_back(x):      # each step reads the row written two steps before
        def body(i, buf):
            row = lax.dynamic_slice(buf, (jnp.maximum(i - 2, 0), 0), (1, x.shape[1]))
            return lax.dynamic_update_slice(buf, jnp.sin(row) + i.astype(x.dtype), (i, 0))
        return lax.fori_loop(3, 43, body, x)

    def prime(x):           # 29 steps: no factor from 2 to 24 divides it
        def body(c, _):
            return c + 1.0, c
        return lax.scan(body, x[0], None, length=29)

    def keeps_previous(x):  # carries the buffer before each step's update and after it
        def body(i, carry):
            _, buf = carry
            row = lax.dynamic_slice(buf, (i, 0), (1, x.shape[1]))
            return buf, lax.dynamic_update_slice(buf, jnp.cos(row) + 1.0, (i + 1, 0))
        return lax.fori_loop(0, 48, body, (x, x))

    return {"scan": (scan, (16, 128)), "reads_back": (reads_back, (48, 32)),
            "prime": (prime, (4, 8)), "keeps_previous": (keeps_previous, (64, 1024))}


def _lowered(name):
    import jax
    fn, shape = _programs()[name]
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    return fn, x, jax.jit(fn).lower(x).as_text()


@pytest.mark.parametrize("name", ["scan", "reads_back", "prime", "keeps_previous"])
def test_agrees_with_xla(name):
    import jax
    fn, x, text = _lowered(name)
    got = shlo.compile(text, target="cpu")(x)
    want = jax.tree.leaves(jax.jit(fn)(x))
    got = list(got) if isinstance(got, tuple) else [got]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, options, updates", [
    ("scan", "", 24 * 3), ("reads_back", "", 20), ("prime", "", 1), ("keeps_previous", "", 1),
    ("scan", "{max-factor=16}", 16 * 3), ("scan", "{max-ops=1}", 3)])
def test_steps_per_trip(ctx, name, options, updates):
    from shlo.passes.pipeline import run_pipeline
    _, _, text = _lowered(name)
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module.operation,
                 f"builtin.module(inline, canonicalize, shlo-unroll-scan-loops{options})")
    assert str(module).count("stablehlo.dynamic_update_slice") == updates
