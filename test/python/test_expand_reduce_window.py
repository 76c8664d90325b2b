"""shlo-expand-reduce-window on random windows (padding, negative padding, base and window
dilation, strides that leave a tail unread; add, multiply, max, min) and on unsigned cumulative
reductions (what jnp.cumsum/cumprod/cummax/cummin of unsigned ints lower to), run on IREE's CPU
and Vulkan backends and checked against the StableHLO reference interpreter."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import assert_matches_reference, check_all, compile_functions, function_name
from window_programs import reduce_window

RNG = np.random.default_rng(5)
CASES = ([reduce_window(RNG, f"rw{k}") for k in range(12)]
         + [reduce_window(RNG, f"rwu{k}", "ui8") for k in range(2)])


def cumulative(name: str, element: str, reduction: str, init: str, n: int, dtype):
    """The reduce_window JAX emits for a cumulative reduction along a length-n vector."""
    t, s = f"tensor<{n}x{element}>", f"tensor<{element}>"
    text = f"""func.func @{name}(%x: {t}) -> {t} {{
  %c = stablehlo.constant dense<{init}> : {s}
  %0 = "stablehlo.reduce_window"(%x, %c) <{{padding = dense<[[{n - 1}, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: {n}>}}> ({{
  ^bb0(%a: {s}, %b: {s}):
    %1 = stablehlo.{reduction} %a, %b : {s}
    stablehlo.return %1 : {s}
  }}) : ({t}, {s}) -> {t}
  return %0 : {t}
}}"""
    info = np.iinfo(dtype)
    values = RNG.integers(0, info.max, n, dtype=np.uint64).astype(dtype)
    if reduction == "multiply":
        values = RNG.integers(1, 7, n).astype(dtype)
    return text, [values]


UNSIGNED = [
    cumulative("cumsum_ui32", "ui32", "add", "0", 7, np.uint32),
    cumulative("cumprod_ui8", "ui8", "multiply", "1", 6, np.uint8),
    cumulative("cummax_ui32", "ui32", "maximum", "0", 7, np.uint32),
    cumulative("cummin_ui16", "ui16", "minimum", "65535", 5, np.uint16),
]
ALL = CASES + UNSIGNED
VULKAN = CASES[:4] + UNSIGNED[:1] + UNSIGNED[2:3]      # Vulkan compiles cost more: a subset


@pytest.fixture(scope="module")
def cpu(ctx):
    return compile_functions(ctx, ALL, "cpu")


@pytest.mark.parametrize("case", ALL, ids=[function_name(t) for t, _ in ALL])
@pytest.mark.every_case
def test_reduce_window_matches_the_reference_interpreter_on_cpu(cpu, case):
    assert_matches_reference(cpu, case)


def test_unsigned_cumulative_sum_wraps_like_numpy(cpu):
    # an oracle independent of the interpreter: numpy's cumsum in uint32
    text, (x,) = UNSIGNED[0]
    np.testing.assert_array_equal(cpu.function("cumsum_ui32")(x), np.cumsum(x, dtype=np.uint32))


def test_reduce_window_on_vulkan(ctx):
    vulkan_or_skip()
    check_all(ctx, VULKAN, "vulkan")


def test_f32_cumlogsumexp_rounds_each_step_like_the_reference():
    """jax's cumlogsumexp (a reduce_window whose body is logaddexp) on CPU equals the reference
    interpreter, which rounds each op of each sequential step to f32 (that, not shlo, puts it
    4.5 ulps from mpmath at 256 elements and 54 at 4096: docs/iree_gaps.md)."""
    import jax
    import shlo
    from reference_oracle import evaluate
    x = (np.random.default_rng(1).standard_normal(200) * 3).astype(np.float32)
    text = jax.jit(jax.lax.cumlogsumexp).lower(x).as_text()
    got = shlo.compile(text, target="cpu")(x)
    np.testing.assert_array_equal(np.asarray(got), evaluate(text, [x])[0])
