"""shlo-saturate-float-to-int: float -> integer converts saturate as XLA's do (NaN -> 0, out of
range -> the nearest bound, negative -> 0 for unsigned types); IREE 3.13 wrapped or gave
INT_MIN. Every float type into every integer width, NaN, infinities, the bounds and 4096
values up to 1e5 around them, on every target, exactly against XLA."""
import numpy as np
import pytest

import shlo.jax as shlo_jax
from conftest import vulkan_or_skip

jax = pytest.importorskip("jax")
jnp = jax.numpy

EDGES = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, -0.99, -1.0, -1.5, 1.5, 126.9,
         127.0, 127.5, 128.0, 200.0, 255.0, 255.9, 256.0, 300.0, -128.0, -128.9, -129.0,
         32767.0, 32768.0, 65535.0, 65536.0, 2.0 ** 31, -2.0 ** 31, 2.0 ** 31 - 128, 2.0 ** 32,
         2.0 ** 63, -2.0 ** 63, 2.0 ** 64, 1e30, -1e30, 3e38, -3e38, 1e300]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def _values(dtype):
    wide = np.random.default_rng(0).standard_normal(4096) * 1e5
    with np.errstate(over="ignore"):
        return np.concatenate([EDGES, wide]).astype(jnp.dtype(dtype))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("source", FLOATS)
def test_converts_saturate_like_xla(source, target):
    if target == "vulkan":
        vulkan_or_skip()
    x = _values(source)

    def f(x):
        return [x.astype(jnp.dtype(t)) for t in INTS]
    with jax.enable_x64(True):
        expected = jax.jit(f, backend="cpu")(x)
        got = shlo_jax.jit(f, target=target)(x)
        for t, g, e in zip(INTS, got, expected):
            g, e = np.asarray(g), np.asarray(e)
            assert g.dtype == e.dtype, t
            wrong = np.nonzero(g != e)[0]
            assert not len(wrong), (t, x[wrong[:4]], g[wrong[:4]], e[wrong[:4]])


def test_image_to_bytes():
    """`(image * 255).astype(jnp.uint8)` of an image slightly outside [0, 1] (1M pixels)."""
    image = np.random.default_rng(1).uniform(-0.1, 1.1, (1024, 1024)).astype(np.float32)

    def f(image):
        return (image * 255).astype(jnp.uint8)
    np.testing.assert_array_equal(np.asarray(shlo_jax.jit(f)(image)),
                                  np.asarray(jax.jit(f, backend="cpu")(image)))
