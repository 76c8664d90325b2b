"""shlo.jax.jit: jax.jit's calling convention compiled by shlo, checked against jax.jit (XLA)."""
import collections
import subprocess
import sys

import ml_dtypes
import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import shlo  # noqa: E402
from shlo.jax import JaxMissingError, LoweringError, jit  # noqa: E402

from conftest import vulkan_or_skip  # noqa: E402

Point = collections.namedtuple("Point", "x y")


def assert_same_tree(got, want, rtol=1e-6, atol=1e-6):
    """Same pytree structure, dtypes and values (numpy results vs jax.jit's)."""
    got_leaves, got_tree = jax.tree_util.tree_flatten(got)
    want_leaves, want_tree = jax.tree_util.tree_flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        assert isinstance(g, np.ndarray)
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol,
                                   atol=atol)


def test_import_does_not_import_jax():
    code = ("import sys, shlo, shlo.jax; assert 'jax' not in sys.modules; "
            "assert shlo.jax.jit.__module__ == 'shlo.runtime.jax_jit'; "
            "assert 'jax' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_jax_says_pip_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(JaxMissingError, match="pip install jax") as info:
        jit(lambda x: x)
    assert isinstance(info.value, ImportError) and isinstance(info.value, shlo.Error)


def tree_fn(params, pair, point, rest, flag=None, *, scale):
    """dicts, tuples, lists, a namedtuple, None leaves and keywords in; the same out."""
    h = jnp.tanh(pair[0] @ params["w"] + params["b"]) * scale
    return {"h": h, "sums": [h.sum(0), pair[1] * 2], "none": None,
            "point": Point(point.x + point.y, point.y), "rest": rest, "empty": {}}


def tree_args(batch=4):
    rng = np.random.default_rng(0)
    params = {"w": rng.standard_normal((3, 5)).astype(np.float32),
              "b": rng.standard_normal(5).astype(np.float32)}
    pair = (rng.standard_normal((batch, 3)).astype(np.float32), np.int32(7))
    point = Point(np.float32(1.5), np.arange(3, dtype=np.float32))
    return params, pair, point, [np.ones(2, np.float32), None]


def test_pytrees_in_and_out():
    args = tree_args()
    got = jit(tree_fn)(*args, scale=2.0)
    assert_same_tree(got, jax.jit(tree_fn)(*args, scale=2.0))
    assert isinstance(got["point"], Point) and got["none"] is None and got["empty"] == {}


def test_cache_per_signature():
    traces = []

    def f(x, y):
        traces.append(x.shape)
        return x * y

    g = jit(f)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(g(x, 2.0), x * 2)
    np.testing.assert_array_equal(g(x + 1, 3.0), (x + 1) * 3)      # same signature
    assert len(traces) == 1 and g.cache_size() == 1
    np.testing.assert_array_equal(g(np.arange(6, dtype=np.float32), 2.0),
                                  np.arange(6, dtype=np.float32) * 2)   # a new shape
    assert len(traces) == 2 and g.cache_size() == 2
    g(x, np.float32(2.0))       # a strongly typed scalar is another signature than 2.0 (weak)
    assert len(traces) == 3
    assert g.compile(x, 5.0) is g.compile(x, 2.0)                     # no new trace
    assert len(traces) == 3


def test_static_arguments_and_keywords():
    traces = []

    def f(x, n, *, mode="sum", axis=0):
        traces.append((n, mode))
        y = x ** n
        return y.sum(axis) if mode == "sum" else y.max(axis)

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = jit(f, static_argnames=("n", "mode", "axis"))     # n's position follows from its name
    np.testing.assert_allclose(g(x, 2), (x ** 2).sum(0))
    np.testing.assert_allclose(g(x, 2, mode="max", axis=1), (x ** 2).max(1))
    np.testing.assert_allclose(g(x, n=3), (x ** 3).sum(0))           # static by its name
    np.testing.assert_allclose(g(x, 2), (x ** 2).sum(0))
    assert traces == [(2, "sum"), (2, "max"), (3, "sum")]
    h = jit(f, static_argnums=1)                       # and n's name from its position
    np.testing.assert_allclose(h(x, n=4), (x ** 4).sum(0))
    assert traces[-1] == (4, "sum")


class Scaler:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, Scaler) and other.k == self.k

    @jit(static_argnums=0)
    def scale(self, x):
        return x * self.k


def test_method_with_static_self():
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(Scaler(3.0).scale(x), x * 3)
    np.testing.assert_array_equal(Scaler(2.0).scale(x), x * 2)
    assert Scaler.scale.cache_size() == 2


def test_donated_arguments_stay_valid():
    def step(w, g):
        return w - 0.5 * g, w

    from shlo.runtime.devices import aligned     # an array IREE could be handed in place
    w, g = aligned(np.ones(1024, np.float32)), np.full(1024, 2.0, np.float32)
    new, old = jit(step, donate_argnums=0)(w, g)
    np.testing.assert_array_equal(new, np.zeros(1024, np.float32))
    np.testing.assert_array_equal(old, np.ones(1024, np.float32))
    np.testing.assert_array_equal(w, np.ones(1024, np.float32))


def test_scalars_bf16_jax_arrays_and_x64():
    f = jit(lambda x, s, i, b: (x * s + i, jnp.where(b, x, -x)))
    cases = [
        (np.linspace(-2, 2, 8).astype(ml_dtypes.bfloat16), 1.5, 2, True),   # weak: stays bf16
        (jnp.arange(8, dtype=jnp.float32), jnp.float32(3), np.int32(2), np.bool_(False)),
        (np.linspace(-1, 1, 8), 2.5, 1, False),     # float64 runs in f32 with x64 off, as jax
    ]
    for args in cases:
        assert_same_tree(f(*args), jax.jit(f.fun)(*args), rtol=1e-2 if args[0].dtype ==
                         ml_dtypes.bfloat16 else 1e-6)
    with jax.enable_x64(True):
        x = np.linspace(-1, 1, 8)
        got = jit(lambda x: jnp.exp(x) * 1.5)(x)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, np.exp(x) * 1.5, rtol=1e-15)


def test_empty_pytrees_and_no_arguments():
    assert jit(lambda: ())() == ()
    assert jit(lambda d: {})({}) == {}
    assert jit(lambda x: None)(np.ones(3)) is None
    np.testing.assert_array_equal(jit(lambda: jnp.arange(3))(), np.arange(3, dtype=np.int32))


def mlp_loss(params, x, y):
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))


def sgd_step(params, x, y, lr):
    loss, grads = jax.value_and_grad(mlp_loss)(params, x, y)
    return loss, jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def test_mlp_training_step_matches_jax():
    rng = np.random.default_rng(1)
    params = {"w1": rng.standard_normal((64, 128)).astype(np.float32) * 0.1,
              "b1": np.zeros(128, np.float32),
              "w2": rng.standard_normal((128, 10)).astype(np.float32) * 0.1,
              "b2": np.zeros(10, np.float32)}
    x = rng.standard_normal((256, 64)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 256)]
    step, reference = jit(sgd_step, donate_argnums=0), jax.jit(sgd_step)
    ours, theirs = params, params
    for _ in range(3):                  # the outputs of one step feed the next
        loss, ours = step(ours, x, y, 0.1)
        want_loss, theirs = reference(theirs, x, y, 0.1)
        np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
        assert_same_tree(ours, theirs, rtol=1e-4, atol=1e-5)
    assert step.cache_size() == 1


def test_vulkan():
    vulkan_or_skip()
    f = jit(tree_fn, target="vulkan")
    args = tree_args(batch=64)
    assert_same_tree(f(*args, scale=0.5), jax.jit(tree_fn)(*args, scale=0.5), rtol=1e-5)
    with jax.enable_x64(True):      # f64 as jax computes it, with x64 on
        x = np.linspace(-3, 3, 4096)
        got = jit(jnp.exp, target="vulkan")(x)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, np.exp(x), rtol=1e-14)


# ---- errors ------------------------------------------------------------------------------------
def loss(params, x):
    return jnp.sum(x @ params["w"])


def test_error_argument_not_an_array():
    with pytest.raises(shlo.InvocationError,
                       match=r"^shlo\.jax\.jit\(loss\): argument \"params\['w'\]\" is not an "
                             r"array jax accepts: TypeError"):
        jit(loss)({"w": "weights"}, np.ones((2, 3), np.float32))
    with pytest.raises(shlo.InvocationError, match=r"argument 'args\[1\]\[0\]' .*OverflowError"):
        jit(lambda *a: a)(1, [2 ** 40])


def test_error_inside_a_jax_transformation():
    g = jit(lambda x: jnp.sum(x * x))
    for transform in (jax.grad, jax.jit, jax.vmap):
        with pytest.raises(shlo.InvocationError, match=r"^shlo\.jax\.jit\(<lambda>\): argument "
                                                       r"'x' is a jax tracer"):
            transform(g)(np.ones(3, np.float32))
    assert g.cache_size() == 0


def test_error_static_argument_not_in_signature():
    with pytest.raises(shlo.InvocationError, match=r"^shlo\.jax\.jit\(loss\): ValueError: "
                                                   r".*static_argnums=\(5,\)"):
        jit(loss, static_argnums=5)


def test_error_unhashable_static_argument():
    f = jit(lambda x, dims: x.sum(dims), static_argnums=1)
    with pytest.raises(shlo.InvocationError,
                       match=r"^shlo\.jax\.jit\(<lambda>\): static argument 'dims' \(position 1\)"
                             r" is unhashable \(list\)"):
        f(np.ones((2, 3), np.float32), [0])
    np.testing.assert_array_equal(f(np.ones((2, 3), np.float32), (0,)), np.full(3, 2.0))


def test_error_wrong_structure_and_shape_for_compiled():
    w, x = {"w": np.ones((3, 2), np.float32)}, np.ones((4, 3), np.float32)
    compiled = jit(loss).compile(w, x)
    assert compiled(w, x) == 24.0 and isinstance(compiled.executable, shlo.Executable)
    assert "stablehlo.dot_general" in compiled.text and "test_jax_jit.py" in compiled.text
    assert jit(loss).lower(w, x).startswith("module @jit_loss") and \
        "test_jax_jit.py" not in jit(loss).lower(w, x)
    with pytest.raises(shlo.InvocationError, match=r"^shlo\.jax\.jit\(loss\): compiled for "
                                                   r"arguments of structure"):
        compiled({"w": w["w"], "b": w["w"]}, x)
    with pytest.raises(shlo.InvocationError, match=r"argument 'x' is float32\[5,3\], compiled for "
                                                   r"float32\[4,3\]"):
        compiled(w, np.ones((5, 3), np.float32))


def test_error_lowering_failure():
    with pytest.raises(LoweringError, match=r"^shlo\.jax\.jit\(loss\): jax could not lower it "
                                            r"for arguments \(float32\[3,2\], float32\[4,4\]\): "
                                            r"TypeError: dot_general") as info:
        jit(loss)({"w": np.ones((3, 2), np.float32)}, np.ones((4, 4), np.float32))
    assert isinstance(info.value.__cause__, TypeError)


def test_error_effects_and_callbacks():
    def printing(x):
        jax.debug.print("x={}", x)
        return x

    def ordered(x):
        jax.debug.print("x={}", x, ordered=True)
        return x

    with pytest.raises(LoweringError, match=r"^shlo\.jax\.jit\(printing\): the program calls "
                                            r"back into Python"):
        jit(printing)(np.ones(3, np.float32))
    with pytest.raises(LoweringError, match=r"^shlo\.jax\.jit\(ordered\): the program has "
                                            r"ordered effects"):
        jit(ordered)(np.ones(3, np.float32))


@pytest.mark.parametrize("impl", ["threefry2x32", "rbg"])
def test_typed_prng_keys_in_and_out(impl):
    """jax.random.key arguments pass their data (as jax lowers them); key results come back as
    keys of the same implementation, their data and every value jax's own."""
    def step(key, x):
        key, sub = jax.random.split(key)
        return key, jax.random.split(sub, 4), x + jax.random.normal(sub, x.shape)
    key, x = jax.random.key(7, impl=impl), np.zeros(4096, np.float32)
    got, want = jit(step)(key, x), jax.jit(step)(key, x)
    for g, w in zip(got[:2], want[:2]):
        assert jax.typeof(g) == jax.typeof(w)
        np.testing.assert_array_equal(jax.random.key_data(g), jax.random.key_data(w))
    np.testing.assert_allclose(got[2], want[2], rtol=1e-5, atol=1e-6)   # (erfinv: 2 ulp)
    again = jit(step)(got[0], x)            # a returned key passed back in
    np.testing.assert_allclose(again[2], jax.jit(step)(want[0], x)[2], rtol=1e-5, atol=1e-6)


def test_error_target_cannot_run_it():
    with pytest.raises(shlo.CompileError, match=r"^shlo\.jax\.jit\(<lambda>\): unknown target"):
        jit(lambda x: x, target="tpu")
    with jax.enable_x64(True):      # a GPU without f64 (checked before IREE runs)
        with pytest.raises(shlo.CompileError, match=r"^shlo\.jax\.jit\(<lambda>\): \S*"
                                                    r"test_jax_jit\.py:\d+:\d+: "    # the line
                                                    r"vulkan:mali-g715 has no f64 at all"):
            jit(lambda x: jnp.exp(x), target="vulkan:mali-g715").compile(np.ones(3))


def test_error_missing_driver():
    from shlo.runtime.devices import driver_available
    if driver_available("cuda")[0]:
        pytest.skip("a CUDA device is here")
    with pytest.raises(shlo.DeviceError, match=r"^shlo\.jax\.jit\(<lambda>\): target 'cuda\S*' "
                                               r"runs on the 'cuda' driver, which is not usable"):
        jit(lambda x: x + 1, target="cuda")(np.ones(3, np.float32))      # before compiling
    compiled = jit(jnp.tanh, target="cuda").compile(np.ones(3, np.float32))   # compile only
    assert compiled.executable.target.startswith("cuda")
    with pytest.raises(shlo.DeviceError, match=r"^shlo\.jax\.jit\(tanh\): cannot open IREE "
                                               r"device 'cuda'"):
        compiled(np.ones(3, np.float32))
