"""cpu_tuning's per-module rules, retries and the cpu target's pass options: `cpu-index-constants`
(no constant-expression hoisting for modules whose constant expressions are integer index
arithmetic) and shlo-unroll-scan-loops' bound on unrolled bodies."""
import numpy as np
import pytest

import shlo
from shlo.pipelines.cpu_tuning import NO_CONST_EXPR_HOISTING, module_flags

_MASKED = """
func.func @main(%x: tensor<32x4096xf32>) -> tensor<32x4096xf32> {
  %rows = stablehlo.iota dim = 0 : tensor<32x4096xi32>
  %cols = stablehlo.iota dim = 1 : tensor<32x4096xi32>
  %c = stablehlo.constant dense<4096> : tensor<32x4096xi32>
  %five = stablehlo.constant dense<5> : tensor<32x4096xi32>
  %zero = stablehlo.constant dense<0> : tensor<32x4096xi32>
  %r = stablehlo.multiply %rows, %c : tensor<32x4096xi32>
  %i = stablehlo.add %r, %cols : tensor<32x4096xi32>
  %m = stablehlo.remainder %i, %five : tensor<32x4096xi32>
  %keep = stablehlo.compare EQ, %m, %zero : (tensor<32x4096xi32>, tensor<32x4096xi32>) -> tensor<32x4096xi1>
  %neg = stablehlo.negate %x : tensor<32x4096xf32>
  %y = stablehlo.select %keep, %x, %neg : tensor<32x4096xi1>, tensor<32x4096xf32>
  return %y : tensor<32x4096xf32>
}
"""

_INDEX = """
func.func @main(%x: tensor<1024xi32>) -> tensor<1024xi32> {
  %i = stablehlo.iota dim = 0 : tensor<1024xi32>
  %c = stablehlo.constant dense<3> : tensor<1024xi32>
  %j = stablehlo.multiply %i, %c : tensor<1024xi32>
  %y = stablehlo.add %x, %j : tensor<1024xi32>
  return %y : tensor<1024xi32>
}
"""


def _flags(ctx, text):
    return module_flags(shlo.parse_module(text, context=ctx).operation)


@pytest.mark.parametrize("change, hoisted", [
    (None, False),                                      # an iota times a constant: index maths
    (("%j = stablehlo.multiply %i, %c : tensor<1024xi32>",   # float maths of constants
      "%f = stablehlo.convert %i : (tensor<1024xi32>) -> tensor<1024xf32>\n"
      "  %e = stablehlo.exponential %f : tensor<1024xf32>\n"
      "  %j = stablehlo.convert %e : (tensor<1024xf32>) -> tensor<1024xi32>"), True),
    (("%j = stablehlo.multiply %i, %c : tensor<1024xi32>",   # float values, even cheap ones
      "%f = stablehlo.convert %i : (tensor<1024xi32>) -> tensor<1024xf32>\n"
      "  %g = stablehlo.add %f, %f : tensor<1024xf32>\n"
      "  %j = stablehlo.convert %g : (tensor<1024xf32>) -> tensor<1024xi32>"), True),
    (("tensor<1024xi32>", "tensor<2097152xi32>"), True),    # more than 2^20 elements
])
@pytest.mark.every_case
def test_index_constants_compile_without_hoisting(ctx, change, hoisted):
    text = _INDEX if change is None else _INDEX.replace(*change)
    flags = _flags(ctx, text)
    assert (NO_CONST_EXPR_HOISTING[0] not in flags) == hoisted


def test_products_of_constants_and_loops_keep_hoisting(ctx):
    """A matrix product reading an index-derived constant (data tiling packs it once, when the
    module loads) or a module with a loop (IREE failed to compile some without hoisting)."""
    dot = """
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %i = stablehlo.iota dim = 0 : tensor<64x64xi32>
  %j = stablehlo.iota dim = 1 : tensor<64x64xi32>
  %k = stablehlo.add %i, %j : tensor<64x64xi32>
  %w = stablehlo.convert %k : (tensor<64x64xi32>) -> tensor<64x64xf32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
"""
    assert NO_CONST_EXPR_HOISTING[0] not in _flags(ctx, dot)
    loop = _INDEX.replace("  return %y : tensor<1024xi32>", """
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%n = %zero, %v = %y) : tensor<i32>, tensor<1024xi32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %b = stablehlo.compare LT, %n, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %b : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %m = stablehlo.add %n, %one : tensor<i32>
      %u = stablehlo.add %v, %v : tensor<1024xi32>
      stablehlo.return %m, %u : tensor<i32>, tensor<1024xi32>
    }
  return %w#1 : tensor<1024xi32>""")
    assert NO_CONST_EXPR_HOISTING[0] not in _flags(ctx, loop)


def test_index_constants_module_agrees_with_numpy(ctx):
    """A row-major position mask over 32x4096 (sampling's kind of iota arithmetic), compiled
    without hoisting, selects exactly what numpy's does."""
    assert NO_CONST_EXPR_HOISTING[0] in _flags(ctx, _MASKED)
    x = np.random.default_rng(0).standard_normal((32, 4096)).astype(np.float32)
    got = shlo.compile(_MASKED, target="cpu", cache=False)(x)
    keep = (np.arange(32 * 4096).reshape(32, 4096) % 5) == 0
    np.testing.assert_array_equal(np.asarray(got), np.where(keep, x, -x))


def test_unrolled_loop_bodies_stay_within_the_cpu_bound():
    """The cpu target bounds shlo-unroll-scan-loops' unrolled bodies (compile time: a 226-op
    decode step runs 8 a trip, not 16; lstm_scan's 90-op step keeps 24)."""
    from shlo.pipelines import target_pipeline
    from shlo.pipelines.targets import get_target
    assert "shlo-unroll-scan-loops{max-ops=2200}" in target_pipeline("default",
                                                                     get_target("cpu"))


def test_a_vae_step_compiles_through_the_second_retry():
    """A VAE's loss and gradients (sigmoid(z @ w) read by two logs): IREE fused the data-tiled
    matmul with the sigmoid's three readers and needed 58 KB of stack, without aggressive
    fusion too ("exceeded stack allocation limit"); cpu-stack-limit's second retry compiles it
    without multi-use fusion. Against XLA."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    import shlo.jax as shlo_jax

    def step(params, x, key):
        def loss(params):
            w1, w2, w3 = params
            mu, logv = jnp.split(jax.nn.relu(x @ w1) @ w2, 2, axis=-1)
            z = mu + jnp.exp(0.5 * logv) * jax.random.normal(key, mu.shape)
            rec = jax.nn.sigmoid(z @ w3)
            return (-jnp.mean(x * jnp.log(rec + 1e-7) + (1 - x) * jnp.log(1 - rec + 1e-7))
                    - 0.5 * jnp.mean(1 + logv - mu ** 2 - jnp.exp(logv)))
        return jax.value_and_grad(loss)(params)
    rng = np.random.default_rng(0)
    params = tuple((rng.standard_normal(s) * 0.05).astype(np.float32)
                   for s in ((784, 256), (256, 64), (32, 784)))
    x = (rng.uniform(size=(64, 784)) > 0.5).astype(np.float32)
    key = jax.random.key(0)
    got, want = shlo_jax.jit(step, cache=False)(params, x, key), jax.jit(step)(params, x, key)
    for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)


def test_a_gathered_bf16_layer_input_compiles_through_the_second_retry():
    """[sort, gather, roll, gather, bf16] forward on x[128, 256] (shlo-fuzz --jax seed 15
    program 80): IREE fused the last gather with the relayout of the bf16 matmul's data-tiled
    operand into one dispatch of two results, "One or more operations with large vector sizes
    (32768 bytes)", without aggressive fusion too (measured on an AMX machine); cpu-large-
    vectors' second retry compiles it without multi-use fusion. Checked against XLA as the
    fuzzer checks it."""
    from shlo.tools.fuzz import jax_programs
    from shlo.tools.fuzz.runner import InProcess
    program = jax_programs.random_program("15:80", ["sort", "gather", "roll", "gather", "bf16"])
    assert jax_programs.check(program, "cpu", InProcess()) is None


_SANITIZED_PRODUCT = """
func.func @main(%x: tensor<3x12xf32>, %c: tensor<12x12xf32>) -> tensor<3x12xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<3x12xf32>
  %lo = stablehlo.constant dense<-1.0e4> : tensor<f32>
  %hi = stablehlo.constant dense<1.0e4> : tensor<f32>
  %m = stablehlo.negate %x : tensor<3x12xf32>
  %f = stablehlo.is_finite %m : (tensor<3x12xf32>) -> tensor<3x12xi1>
  %s = stablehlo.select %f, %m, %z : tensor<3x12xi1>, tensor<3x12xf32>
  %t = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<3x12xf32>, tensor<f32>) -> tensor<3x12xf32>
  %p = stablehlo.dot_general %t, %c, contracting_dims = [1] x [0] : (tensor<3x12xf32>, tensor<12x12xf32>) -> tensor<3x12xf32>
  %r = stablehlo.subtract %p, %m : tensor<3x12xf32>
  return %r : tensor<3x12xf32>
}
"""


def test_a_product_of_a_sanitized_value_minus_that_value_compiles():
    """dot(clamp(select(is_finite(-x), -x, 0)), c) + x: IREE fused -x (two results: itself and
    its sanitized form) with the data-tiled matmul and its codegen failed without a reason
    ("failed to run translation of source executable"); cpu-codegen-failure compiles it again
    without aggressive fusion. Against numpy, infinities in x."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 12)).astype(np.float32)
    x[0] = np.inf
    x[2, ::3] = -np.inf
    c = rng.standard_normal((12, 12)).astype(np.float32)
    m = -x
    want = np.clip(np.where(np.isfinite(m), m, 0), -1e4, 1e4) @ c - m
    np.testing.assert_allclose(shlo.compile(_SANITIZED_PRODUCT, "cpu", cache=False)(x, c), want,
                               rtol=1e-5, atol=1e-5)


def test_a_matmul_of_a_padded_argument_beside_threefry_compiles_through_the_retry():
    """Fuzz seed 183 program 1656 (test/fuzz_regressions/matmul_of_padded_argument_beside_
    threefry_cpu): a dot_general of a select of threefry bits and a padded, reshaped argument
    failed IREE's cpu compile with data tiling ("'iree_codegen.load_from_buffer' op buffer and
    tensor shapes must be compatible"); cpu-load-from-buffer compiles it again without."""
    import os

    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import InProcess
    here = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions",
                        "matmul_of_padded_argument_beside_threefry_cpu")
    assert fuzz.replay(here, "cpu", InProcess()) is None
