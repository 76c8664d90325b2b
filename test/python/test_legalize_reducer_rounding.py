"""shlo-legalize-reducer-rounding: round_nearest_even/afz inside reducer bodies (which IREE
cannot compile there) match the reference interpreter exactly on the hard values: halves,
just below a half, negative zero and negatives rounding to zero, odd/even neighbours,
numbers too large to have a fraction, infinities and NaN; f32, f64, f16 and bf16 through
map bodies, on CPU and Vulkan. jax's cumlogsumexp on f64 (a reduce_window
whose f64 exp expansion rounds) compiles and matches XLA."""
import ml_dtypes
import numpy as np
import pytest

import shlo

from conftest import vulkan_or_skip
from reference_oracle import check_all

HARD = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, -0.3, 0.3, -0.0, 0.0,
        3.7, -3.7, 2.0 ** 52 + 1, -(2.0 ** 23) - 1, 1e30, float("inf"), float("-inf"),
        float("nan"), 7.5, 8.5]


def _map_case(op: str, element: str, dtype, values=HARD):
    n = len(values)
    text = f"""func.func @{op}_{element}(%x: tensor<{n}x{element}>) -> tensor<{n}x{element}> {{
  %r = "stablehlo.map"(%x) <{{dimensions = array<i64: 0>}}> ({{
  ^bb0(%a: tensor<{element}>):
    %o = stablehlo.{op} %a : tensor<{element}>
    stablehlo.return %o : tensor<{element}>
  }}) : (tensor<{n}x{element}>) -> tensor<{n}x{element}>
  return %r : tensor<{n}x{element}>
}}"""
    return text, [np.array(values, dtype)]


CASES = [_map_case(op, e, d) for op in ("round_nearest_even", "round_nearest_afz")
         for e, d in (("f32", np.float32), ("f64", np.float64))]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_rounding_in_bodies_matches_the_interpreter(ctx, target):
    if target == "vulkan":
        vulkan_or_skip()
    cases = CASES if target == "cpu" else [c for c in CASES if "f64" not in c[0]]
    check_all(ctx, cases, target)


@pytest.mark.parametrize("element, dtype", [("f16", np.float16), ("bf16", ml_dtypes.bfloat16)])
@pytest.mark.every_case
def test_half_precision_matches_numpy_rint(ctx, element, dtype):
    """(The interpreter cannot take bf16 arrays: numpy's rint, which rounds half to even, is
    the oracle for round_nearest_even.)"""
    text, (x,) = _map_case("round_nearest_even", element, dtype,
                           [v for v in HARD if not abs(v) < float("inf") or abs(v) < 6e4])
    got = shlo.compile(shlo.parse_module(text, context=ctx), target="cpu")(x)
    np.testing.assert_array_equal(got.astype(np.float64), np.rint(x.astype(np.float64)))
    assert np.array_equal(np.signbit(got.astype(np.float64)), np.signbit(x.astype(np.float64)))


def test_jax_cumlogsumexp_f64_matches_xla():
    jax = pytest.importorskip("jax")
    x = np.random.default_rng(5).uniform(-3, 3, (6, 3))
    f = jax.jit(lambda v: jax.lax.cumlogsumexp(v, axis=0))
    with jax.enable_x64(True):
        text, want = f.lower(x).as_text(), np.asarray(f(x))
    np.testing.assert_allclose(shlo.compile(text, target="cpu")(x), want, rtol=1e-14)
