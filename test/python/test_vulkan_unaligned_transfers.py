"""Vulkan dispatches that read or write a binding at an offset that is not a whole 128-bit
vector (passes/targets/vulkan/unaligned_transfers.py): IREE's SPIR-V codegen rounded such an
offset down (`2 * x[7:4103]` read x[4:4100]), silently, at every size it vectorizes. Each
case runs on Vulkan at a real size against numpy."""
import numpy as np
import pytest

import shlo
from conftest import vulkan_or_skip

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax


def _rows(x):
    return x[:, 3:259]


CASES = {   # name: (function, argument shapes)
    "slice": (lambda x: x[7:4103] * 2, [(65536,)]),
    "dynamic_slice": (lambda x, i: lax.dynamic_slice(x, (i,), (4096,)) * 2, [(65536,), ()]),
    "rows": (lambda x: _rows(x) * 2, [(256, 260)]),
    "two_offsets": (lambda x: x[3:16387] * x[5:16389], [(16400,)]),
    "pad": (lambda x: jnp.pad(x * 2, (3, 5)), [(65536,)]),
    "concatenate": (lambda x, y: jnp.concatenate([x * 2, y * 3]), [(7,), (16384,)]),
    "row_sums": (lambda x: _rows(x).sum(1), [(256, 260)]),
    "softmax": (lambda x: jax.nn.softmax(_rows(x), -1), [(256, 260)]),
    "layer_norm": (lambda x: (_rows(x) - _rows(x).mean(1, keepdims=True))
                   / jnp.sqrt(_rows(x).var(1, keepdims=True) + 1e-5), [(256, 260)]),
    "product": (lambda x, w: _rows(x) @ w, [(256, 260), (256, 128)]),
    "loop": (lambda x: lax.fori_loop(0, 5, lambda k, a: a + lax.dynamic_slice(
        x, (3 * k + 1,), (4096,)), jnp.zeros(4096, x.dtype)), [(65536,)]),
}


def _arguments(shapes, dtype, rng):
    return [np.int32(5) if shape == () else
            (rng.standard_normal(shape) * 10).astype(dtype) for shape in shapes]


def _check(name, dtype, **compile_options):
    f, shapes = CASES[name]
    args = _arguments(shapes, dtype, np.random.default_rng(0))
    with jax.enable_x64(dtype == np.float64):
        text = jax.jit(f).lower(*args).as_text()
        expected = np.asarray(jax.jit(f, backend="cpu")(*args))
    got = np.asarray(shlo.compile(text, target="vulkan", **compile_options)(*args))
    exact = np.issubdtype(dtype, np.integer) or name in ("slice", "dynamic_slice", "rows",
                                                         "pad", "concatenate", "two_offsets")
    if exact:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=2e-5, atol=1e-5 * np.abs(expected).max())


@pytest.mark.parametrize("name", list(CASES))
def test_unaligned_f32(name):
    vulkan_or_skip()
    _check(name, np.float32)


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.float64])
@pytest.mark.parametrize("name", ["slice", "rows", "pad"])
def test_unaligned_other_widths(name, dtype):
    """16-, 8- and 64-bit elements: 8, 16 and 2 to a vector."""
    vulkan_or_skip()
    _check(name, dtype)


def test_unaligned_in_a_child_compile():
    """The same rewrite where iree-compile runs in child processes (isolate)."""
    vulkan_or_skip()
    _check("rows", np.float32, isolate=True)


def test_unaligned_compiled_phase_by_phase(monkeypatch):
    """The same rewrite where IREE compiles one phase at a time (SHLO_VERIFY_EACH=0)."""
    vulkan_or_skip()
    monkeypatch.setenv("SHLO_VERIFY_EACH", "0")
    _check("softmax", np.float32, cache=False)
