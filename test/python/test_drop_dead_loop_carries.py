"""shlo-drop-dead-loop-carries: jax's fori_loop with static bounds carries its counter twice
and one copy's result goes unread; IREE 3.13 ran a lax.switch followed by two such loops and
a mean wrongly on Vulkan (0.0, then other wrong values, on most calls; also without shlo's
passes; found by shlo-fuzz --jax). Against XLA, several calls, cpu and vulkan.
docs/iree_gaps.md#shlo-drop-dead-loop-carries"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo.jax


def _switch_then_loops(x, k):
    y = jax.lax.switch(k % 3, [lambda v: v, lambda v: jnp.cos(v), lambda v: -v],
                       jax.nn.log_softmax(x, axis=-1))
    for _ in range(2):
        y = jax.lax.fori_loop(0, 2, lambda i, v: v * 0.5 + jnp.tanh(v) * 0.5, y)
    return jnp.mean(y ** 2)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_switch_then_counted_loops(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    x = np.random.default_rng(6).standard_normal((64, 1024)).astype(np.float32)
    run = shlo.jax.jit(_switch_then_loops, target=target)
    for k in (1, 2, 0, 1):      # (without the pass: 8 of 12 such calls wrong on vulkan)
        want = np.asarray(jax.jit(_switch_then_loops, backend="cpu")(x, np.int32(k)))
        np.testing.assert_allclose(np.asarray(run(x, np.int32(k))), want, rtol=1e-5,
                                   err_msg=f"k = {k}")


def test_the_unread_counter_is_dropped():
    """The lowered loops carry the step and the value only."""
    text = shlo.jax.jit(_switch_then_loops, target="cpu").lower(
        np.zeros((64, 1024), np.float32), np.int32(0))
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(text)
    run_pipeline(module, "builtin.module(inline)")
    def carried(text):
        return [line.rsplit(" : ", 1)[1] for line in text.splitlines() if "stablehlo.while(" in line]
    before = carried(str(module))
    run_pipeline(module, "builtin.module(shlo-drop-dead-loop-carries)")
    after = carried(str(module))
    assert before == ["tensor<i32>, tensor<i32>, tensor<64x1024xf32>"] * 2, before
    assert after == ["tensor<i32>, tensor<64x1024xf32>"] * 2, after
