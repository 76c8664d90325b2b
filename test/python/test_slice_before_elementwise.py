"""shlo-slice-before-elementwise at 4M elements: a few words sliced from a flattened
clamp-and-convert seed an rng_bit_generator (IREE 3.13 kept the whole converted tensor on the
dispatch's stack: 'exceeded stack allocation limit', also without shlo's passes); the words
against numpy, the generator's bits against the same generator seeded by an argument."""
import numpy as np
import pytest

import shlo

SHAPE = (64, 256, 256)          # 4M elements
N = int(np.prod(SHAPE))
S = "x".join(map(str, SHAPE))

SEEDED = f"""
func.func @seeded(%x: tensor<{S}xf32>) -> (tensor<2xui64>, tensor<2xui64>, tensor<1024xi64>, tensor<4xi32>) {{
  %nan = stablehlo.compare NE, %x, %x, FLOAT : (tensor<{S}xf32>, tensor<{S}xf32>) -> tensor<{S}xi1>
  %zero = stablehlo.constant dense<0.0> : tensor<{S}xf32>
  %clean = stablehlo.select %nan, %zero, %x : tensor<{S}xi1>, tensor<{S}xf32>
  %lo = stablehlo.constant dense<-9.0e+18> : tensor<f32>
  %hi = stablehlo.constant dense<9.0e+18> : tensor<f32>
  %c = stablehlo.clamp %lo, %clean, %hi : (tensor<f32>, tensor<{S}xf32>, tensor<f32>) -> tensor<{S}xf32>
  %i = stablehlo.convert %c : (tensor<{S}xf32>) -> tensor<{S}xi64>
  %r = stablehlo.reshape %i : (tensor<{S}xi64>) -> tensor<{N}xi64>
  %w = stablehlo.slice %r [5:7] : (tensor<{N}xi64>) -> tensor<2xi64>
  %state = stablehlo.convert %w : (tensor<2xi64>) -> tensor<2xui64>
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1024xi64>)
  %n = stablehlo.negate %x : tensor<{S}xf32>
  %a = stablehlo.abs %n : tensor<{S}xf32>
  %k = stablehlo.convert %a : (tensor<{S}xf32>) -> tensor<{S}xi32>
  %kr = stablehlo.reshape %k : (tensor<{S}xi32>) -> tensor<{N}xi32>
  %ks = stablehlo.slice %kr [{N - 8}:{N}:2] : (tensor<{N}xi32>) -> tensor<4xi32>
  return %state, %next, %bits, %ks : tensor<2xui64>, tensor<2xui64>, tensor<1024xi64>, tensor<4xi32>
}}
func.func @by_argument(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<1024xi64>) {{
  %next, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1024xi64>)
  return %next, %bits : tensor<2xui64>, tensor<1024xi64>
}}
"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_words_of_a_large_convert_seed_a_generator(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(37)
    x = (rng.standard_normal(SHAPE) * 1e6).astype(np.float32)
    x.reshape(-1)[5:7] = [np.nan, 12345.75]
    x.reshape(-1)[-8:] = [-3.5, 1, 7.9, 1, -1e9, 1, 2.5, 1]
    exe = shlo.compile(SEEDED, target=target)
    state, following, bits, ks = exe.function("seeded")(x)
    flat = np.nan_to_num(x.reshape(-1), nan=0.0)
    np.testing.assert_array_equal(state, np.trunc(flat[5:7]).astype(np.int64).view(np.uint64))
    np.testing.assert_array_equal(ks, np.trunc(np.abs(flat[-8::2])).astype(np.int32))
    want_next, want_bits = exe.function("by_argument")(state)
    np.testing.assert_array_equal(following, want_next)
    np.testing.assert_array_equal(bits, want_bits)


def _sliced_boolean(shape: tuple[int, ...]) -> str:
    """Three 8-element slices of a flattened i1-to-f64 convert (clamped) as the scale, offset
    and mean of a batch_norm_inference of an f64 min-reduce (shlo-fuzz seed 108 program 85,
    at 4M elements)."""
    n, s = int(np.prod(shape)), "x".join(map(str, shape))
    return f"""
func.func @main(%b: tensor<{s}xi1>, %x: tensor<8x175xf64>) -> tensor<8xf64> {{
  %init = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
  %m = stablehlo.reduce(%x init: %init) applies stablehlo.minimum across dimensions = [1] : (tensor<8x175xf64>, tensor<f64>) -> tensor<8xf64>
  %f = stablehlo.convert %b : (tensor<{s}xi1>) -> tensor<{s}xf64>
  %r = stablehlo.reshape %f : (tensor<{s}xf64>) -> tensor<{n}xf64>
  %s = stablehlo.slice %r [0:24] : (tensor<{n}xf64>) -> tensor<24xf64>
  %lo = stablehlo.constant dense<-1.0e+04> : tensor<f64>
  %hi = stablehlo.constant dense<1.0e+04> : tensor<f64>
  %c = stablehlo.clamp %lo, %s, %hi : (tensor<f64>, tensor<24xf64>, tensor<f64>) -> tensor<24xf64>
  %s0 = stablehlo.slice %c [0:8] : (tensor<24xf64>) -> tensor<8xf64>
  %s1 = stablehlo.slice %c [8:16] : (tensor<24xf64>) -> tensor<8xf64>
  %s2 = stablehlo.slice %c [16:24] : (tensor<24xf64>) -> tensor<8xf64>
  %v = stablehlo.abs %s0 : tensor<8xf64>
  %y = "stablehlo.batch_norm_inference"(%m, %s0, %s1, %s2, %v) <{{epsilon = 1.0 : f32, feature_index = 0 : i64}}> : (tensor<8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
  return %y : tensor<8xf64>
}}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_slices_of_a_large_converted_boolean(target):
    """Left to IREE, the whole convert went into the slices' dispatch: on the cpu 'exceeded
    stack allocation limit' (32 MiB), on vulkan a compile that did not finish; the pass fences
    the convert, so it is computed once in a dispatch of its own."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(108)
    b = rng.random(SHAPE) < 0.5
    x = rng.standard_normal((8, 175))
    y = np.asarray(shlo.compile(_sliced_boolean(SHAPE), target=target)(b, x))
    f = b.reshape(-1)[:24].astype(np.float64)
    want = (x.min(1) - f[16:24]) * f[:8] / np.sqrt(np.abs(f[:8]) + 1.0) + f[8:16]
    np.testing.assert_allclose(y, want, rtol=1e-15, atol=0)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_strided_slice_of_a_boolean_xor_with_itself(target):
    """shlo-fuzz seed 125 program 105: a strided slice of select(p, x ^ x, x ^ x) of booleans.
    The pass fenced the select (it reads a boolean leaf); IREE folds x ^ x to a constant and
    then failed to compile the fenced constant ('write affecting operations on global
    resources are restricted to workgroup distributed contexts'). A value IREE folds to a
    constant is not fenced."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    exe = shlo.compile("""
    func.func @main(%p: tensor<17xi1>, %n: tensor<17xi32>) -> (tensor<5xi1>, tensor<5xi1>) {
      %x = stablehlo.xor %p, %p : tensor<17xi1>
      %s = stablehlo.select %p, %x, %x : tensor<17xi1>, tensor<17xi1>
      %r = stablehlo.slice %s [2:16:3] : (tensor<17xi1>) -> tensor<5xi1>
      %c = stablehlo.compare LT, %n, %n, SIGNED : (tensor<17xi32>, tensor<17xi32>) -> tensor<17xi1>
      %t = stablehlo.or %c, %c : tensor<17xi1>
      %q = stablehlo.slice %t [1:17:4] : (tensor<17xi1>) -> tensor<4xi1>
      %u = stablehlo.concatenate %q, %r, dim = 0 : (tensor<4xi1>, tensor<5xi1>) -> tensor<9xi1>
      %v = stablehlo.slice %u [0:5] : (tensor<9xi1>) -> tensor<5xi1>
      return %r, %v : tensor<5xi1>, tensor<5xi1>
    }""", target=target)
    p = np.random.default_rng(125).random(17) < 0.5
    r, v = exe(p, np.arange(17, dtype=np.int32))
    np.testing.assert_array_equal(np.asarray(r), np.zeros(5, bool))
    np.testing.assert_array_equal(np.asarray(v), np.zeros(5, bool))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_strided_slices_of_booleans_ored_with_a_self_compare(target):
    """shlo-fuzz seed 155 program 177: a strided slice of `compare(x, x) or y` (y a boolean
    argument's slice): the pass fenced the `or`, which IREE folds to true, and the cpu compile
    failed ('write affecting operations on global resources'). Also `and` with a false one,
    and `not` of a true one, at 65536 elements, against numpy."""
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    n = 65536
    exe = shlo.compile(f"""
    func.func @main(%x: tensor<{n}xui8>, %y: tensor<{n}xi1>) -> (tensor<1x8xi1>, tensor<{n // 3 + 1}xi1>, tensor<{n // 2}xi1>) {{
      %c = stablehlo.compare LE, %x, %x, UNSIGNED : (tensor<{n}xui8>, tensor<{n}xui8>) -> tensor<{n}xi1>
      %o = stablehlo.or %c, %y : tensor<{n}xi1>
      %r = stablehlo.reshape %o : (tensor<{n}xi1>) -> tensor<256x256xi1>
      %s = stablehlo.slice %r [1:2:3, 2:10] : (tensor<256x256xi1>) -> tensor<1x8xi1>
      %f = stablehlo.compare NE, %x, %x, UNSIGNED : (tensor<{n}xui8>, tensor<{n}xui8>) -> tensor<{n}xi1>
      %a = stablehlo.and %y, %f : tensor<{n}xi1>
      %t = stablehlo.slice %a [0:{n}:3] : (tensor<{n}xi1>) -> tensor<{n // 3 + 1}xi1>
      %m = stablehlo.not %c : tensor<{n}xi1>
      %v = stablehlo.or %m, %y : tensor<{n}xi1>
      %w = stablehlo.slice %v [1:{n}:2] : (tensor<{n}xi1>) -> tensor<{n // 2}xi1>
      return %s, %t, %w : tensor<1x8xi1>, tensor<{n // 3 + 1}xi1>, tensor<{n // 2}xi1>
    }}""", target=target, cache=False)
    rng = np.random.default_rng(155)
    x = rng.integers(0, 256, n).astype(np.uint8)
    y = rng.random(n) < 0.5
    s, t, w = (np.asarray(r) for r in exe(x, y))
    np.testing.assert_array_equal(s, np.ones((1, 8), bool))
    np.testing.assert_array_equal(t, np.zeros(n // 3 + 1, bool))
    np.testing.assert_array_equal(w, y[1::2])


def test_complementary_slices_of_jax_associative_scan_stay_whole():
    """jax's associative_scan reads each level's result as x[0::2] and x[1::2]: sliced through,
    each copied the chain above it, and a 256 x 1024 scan's 199 ops became 3931 (compile
    9.6 s against 3.3 s unsliced, run 2.3 against 1.8 ms). Slices that together read all of a
    value leave it whole. Against numpy's cumulative sum and maximum."""
    jax = pytest.importorskip("jax")
    from jax import lax
    jnp = jax.numpy
    from shlo.passes.shapes.slice_before_elementwise import SliceBeforeElementwise
    x = np.random.default_rng(2).standard_normal((256, 1024)).astype(np.float32)
    text = jax.jit(lambda x: (lax.associative_scan(jnp.add, x),
                              lax.associative_scan(jnp.maximum, x, axis=1))).lower(x).as_text()
    module = shlo.parse_module(text)
    before = str(module).count("stablehlo.")
    SliceBeforeElementwise().apply(module)
    assert str(module).count("stablehlo.") <= 1.25 * before      # (slices of a few elements)
    total, peak = shlo.compile(text, "cpu")(x)
    np.testing.assert_allclose(total, np.cumsum(x.astype(np.float64), axis=0), rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_array_equal(peak, np.maximum.accumulate(x, axis=1))


@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_strided_slice_of_a_compare_of_long_bf16_chains(target):
    """A strided slice of a compare of two bf16 chains (a tan scaled by a max, both rounded):
    the slice stopped at the diamonds of shlo's bf16 rounding, and IREE's cpu dispatch of the
    slice computed the chains whole on its stack ('exceeded stack allocation limit', 16 MiB;
    fuzz seed 174 program 438). The ops a slice stops at are fenced. Against XLA, 2048x2048."""
    import jax
    import jax.numpy as jnp
    import shlo.jax
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()

    def f(x):
        a = x.astype(jnp.bfloat16)
        t = jnp.tan(a / jnp.abs(a).max())
        s = jnp.maximum(jnp.abs(t).max(), jnp.abs(a).max())
        return (jnp.round(t / s) < jnp.round(a / s))[2::3, 175:690]
    x = np.random.default_rng(174).integers(-1000, 1000, (2048, 2048)).astype(np.int32)
    got = np.asarray(shlo.jax.jit(f, target=target)(x))
    np.testing.assert_array_equal(got, np.asarray(jax.jit(f, backend="cpu")(x)))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_one_element_of_an_uncontracted_bf16_product(target):
    """Fuzz seed 183 program 159 (test/fuzz_regressions/slice_of_uncontracted_bf16_product_cpu):
    one element of `x * x` written as a dot_general of bf16[16384] contracting nothing (a
    scatter's update; a sort reads the product whole) stopped the slice at the dot_general,
    which IREE makes an elementwise product and fused with the slice: the whole product in
    f32 on the cpu's stack, 'exceeded stack allocation limit' after every retry. A small slice
    reads such a product behind a fence. Replayed against the interpreter and XLA."""
    import os

    from conftest import vulkan_or_skip
    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import InProcess
    if target == "vulkan":
        vulkan_or_skip()
    here = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions",
                        "slice_of_uncontracted_bf16_product_cpu")
    assert fuzz.replay(here, target, InProcess()) is None
