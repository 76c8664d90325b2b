"""shlo-loop-fusion-barriers: fences in loop bodies become fusion barriers (no host wait), so
IREE 3.13's VM does not lose a loop-carried buffer (docs/iree_gaps.md#fences-in-loop-bodies-shlo-loop-fusion-barriers)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import shlo
from shlo.passes.dispatch.loop_fusion_barriers import LoopFusionBarriers

from conftest import vulkan_or_skip

# a barrier of a value the body computes (rewritten); of a block argument, of an f64 value
# and of an inner loop's result, and one outside the loop (all kept)
LOOP = """
func.func @main(%x: tensor<8xf32>, %y: tensor<4xf64>) -> (tensor<8xf32>, tensor<4xf64>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %x, %b = %y) : tensor<i32>, tensor<8xf32>, tensor<4xf64>
   cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.add %a, %a : tensor<8xf32>
    %f = stablehlo.optimization_barrier %s : tensor<8xf32>
    %g = stablehlo.optimization_barrier %a : tensor<8xf32>
    %t = stablehlo.multiply %b, %b : tensor<4xf64>
    %h = stablehlo.optimization_barrier %t : tensor<4xf64>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %u = stablehlo.subtract %f, %g : tensor<8xf32>
    stablehlo.return %j, %u, %h : tensor<i32>, tensor<8xf32>, tensor<4xf64>
  }
  %o = stablehlo.optimization_barrier %r#1 : tensor<8xf32>
  return %o, %r#2 : tensor<8xf32>, tensor<4xf64>
}"""


def test_only_computed_values_in_loops_pass_fusion_barriers(ctx):
    module = shlo.parse_module(LOOP, context=ctx)
    LoopFusionBarriers().apply(module)
    text = str(module)
    assert text.count("iree_tensor_ext.compute_barrier.start") == 1
    assert "%3 = iree_tensor_ext.compute_barrier.start %2 : tensor<8xf32>" in text
    for kept in ("optimization_barrier %iterArg_0 :", "optimization_barrier %5 : tensor<4xf64>",
                 "optimization_barrier %0#1 :"):
        assert kept in text
    LoopFusionBarriers().apply(module)                           # idempotent
    assert str(module) == text


def _decode(vocab=64, d=32, batch=2, steps=8):
    """A greedy decoding loop: GELU MLP on the embedded token, a cache and the tokens written
    with dynamic_update_slice into zeros (two carried values that enter in one buffer)."""
    rng = np.random.default_rng(0)
    embed = rng.normal(size=(vocab, d)).astype(np.float32) * 0.5
    w1 = rng.normal(size=(d, 4 * d)).astype(np.float32) / np.sqrt(d)
    w2 = rng.normal(size=(4 * d, d)).astype(np.float32) / np.sqrt(4 * d)
    first = rng.integers(0, vocab, (batch,)).astype(np.int32)

    def decode(embed, w1, w2, first):
        def body(s):
            i, tok, cache, out = s
            x = embed[tok]
            cache = lax.dynamic_update_slice(cache, x[:, None], (0, i, 0))
            x = x + jax.nn.gelu(x @ w1) @ w2
            tok = jnp.argmax(x @ embed.T, axis=-1).astype(jnp.int32)
            return i + 1, tok, cache, lax.dynamic_update_slice(out, tok[:, None], (0, i))
        init = (np.int32(0), first, jnp.zeros((batch, steps, d), jnp.float32),
                jnp.zeros((batch, steps), jnp.int32))
        s = lax.while_loop(lambda s: s[0] < steps, body, init)
        return s[3], s[2]
    return decode, (embed, w1, w2, first)


def test_decode_loop_with_a_fenced_gelu_on_vulkan():
    """The GELU's tanh (f32_math.tanh) in the loop got a fence (shlo-bound-dispatch-operands);
    as an optimization_barrier it failed every call ('indirect buffer reference slot 0 is out
    range ...' in hal.command_buffer.copy_buffer); against XLA on the CPU."""
    vulkan_or_skip()
    fn, args = _decode()
    want = jax.jit(fn)(*args)
    got = shlo.jax.jit(fn, target="vulkan", cache=False)(*args)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_decode_loop_sizes_on_vulkan():
    vulkan_or_skip()
    for vocab, d, batch, steps in ((128, 64, 2, 16), (512, 128, 4, 48)):
        fn, args = _decode(vocab, d, batch, steps)
        want = jax.jit(fn)(*args)
        got = shlo.jax.jit(fn, target="vulkan", cache=False)(*args)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
