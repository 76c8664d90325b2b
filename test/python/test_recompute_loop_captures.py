"""shlo-recompute-loop-captures (passes/dispatch/recompute_loop_captures.py): a loop body whose
conditionals (with products, so they stay conditionals) read a tensor that ops after them read
too failed IREE 3.13's stream scheduling on the CPU ("failed to schedule execution partitions
without cyclic dependencies"). Each program runs 12 or 20 trips (more than
shlo-unroll-scan-loops unrolls) against XLA's CPU, on cpu and vulkan."""
import numpy as np
import pytest

import shlo
import shlo.jax as shlo_jax
from conftest import vulkan_or_skip
from shlo.passes.dispatch.recompute_loop_captures import RecomputeLoopCaptures

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax

W = (np.eye(128, dtype=np.float32) * 0.5
     + np.random.default_rng(1).standard_normal((128, 128)).astype(np.float32) * 0.01)
X = np.random.default_rng(0).standard_normal((128, 128)).astype(np.float32)


def _cond_then_switch(x):
    def body(k, acc):
        y = jnp.sin(acc) * 0.5
        a = lax.cond(k % 2 == 0, lambda: y @ W, lambda: -y)
        b = lax.switch(k % 3, [lambda: a @ W, lambda: a + 1, lambda: a * 2])
        return b * 0.1 + jnp.cos(y)
    return lax.fori_loop(0, 12, body, x)


def _scan_reading_two_tensors(x):
    def body(acc, k):
        y = jnp.tanh(acc)
        z = acc * acc - 1
        a = lax.cond(k % 2 == 0, lambda: y @ W + z, lambda: z @ W)
        b = lax.cond(k % 3 == 0, lambda: a @ W, lambda: a - y)
        return 0.5 * b + y * 0.25 - z * 0.1, b.sum()
    acc, sums = lax.scan(body, x, jnp.arange(20))
    return acc, sums


def _while_with_a_reduced_capture(x):
    def cond(c):
        return c[0] < 20

    def body(c):
        k, acc = c
        y = acc / (1 + jnp.abs(acc).sum(axis=1, keepdims=True))
        a = lax.cond(k % 2 == 0, lambda: y @ W, lambda: y)
        b = lax.cond(a[0, 0] > 0, lambda: a @ W, lambda: -a)
        return k + 1, b + jnp.exp(-y * y)
    return lax.while_loop(cond, body, (0, x))[1]


def _integer_capture(x):
    def body(k, acc):
        y = (acc * 4).astype(jnp.int32) % 7
        a = lax.cond(k % 2 == 0, lambda: (y.astype(jnp.float32) @ W), lambda: acc * 1.5)
        b = lax.switch(k % 3, [lambda: a @ W, lambda: a + 1, lambda: a * 0.5])
        return jnp.tanh(b) + y.astype(jnp.float32) * 0.01
    return lax.fori_loop(0, 12, body, x)


def _branch_returning_the_carried_value(x):
    def body(k, acc):
        y = jnp.sin(acc)
        a = lax.cond(k % 2 == 0, lambda: y @ W, lambda: acc)
        b = lax.switch(k % 3, [lambda: a @ W, lambda: a + 1, lambda: a * 0.5])
        return jnp.tanh(b) + y
    return lax.fori_loop(0, 12, body, x)


PROGRAMS = {"cond_then_switch": _cond_then_switch,
            "scan_reading_two_tensors": _scan_reading_two_tensors,
            "while_with_a_reduced_capture": _while_with_a_reduced_capture,
            "integer_capture": _integer_capture}


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_loops_agree_with_xla(name, target):
    if target == "vulkan":
        vulkan_or_skip()
    f = PROGRAMS[name]
    got = jax.tree_util.tree_leaves(shlo_jax.jit(f, target=target)(X))
    want = jax.tree_util.tree_leaves(jax.jit(f, backend="cpu")(X))
    for g, w in zip(got, want):
        w = np.asarray(w)
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-5,
                                   atol=2e-5 * max(1.0, float(np.abs(w).max())))


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_a_branch_returning_the_carried_value_is_right_or_a_compile_error(target):
    """Recomputed from the carried value that a branch returns as it is, the CPU's program
    compiled and failed when it ran ('transient buffer has not been committed'): the pass
    leaves it, and the CPU's compile error names the cycle; Vulkan compiles it right."""
    f = _branch_returning_the_carried_value
    if target == "cpu":
        with pytest.raises(shlo.CompileError, match="cyclic dependencies"):
            shlo_jax.jit(f, target=target)(X)
        return
    vulkan_or_skip()
    np.testing.assert_allclose(np.asarray(shlo_jax.jit(f, target=target)(X)),
                               np.asarray(jax.jit(f, backend="cpu")(X)), rtol=2e-5, atol=2e-5)


def _count(text: str) -> int:
    module = shlo.parse_module(text)
    RecomputeLoopCaptures().run(module.operation)
    return str(module).count("stablehlo.optimization_barrier")


def test_only_cheap_tensors_read_after_a_conditional_are_recomputed():
    """The copy reads the loop's carried values through one barrier; a tensor that a product
    computes, that nothing reads after the conditional, or that is computed from a carried
    value a branch returns as it is, is left alone."""
    body = """
  %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<8x8xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %c12 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %y = {Y}
    %p = stablehlo.compare LT, %i, %c6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %a = "stablehlo.if"(%p) ({
      %d = stablehlo.dot_general %y, %acc, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      stablehlo.return %d : tensor<8x8xf32>
    }, {
      %n = stablehlo.negate %acc : tensor<8x8xf32>
      stablehlo.return %n : tensor<8x8xf32>
    }) : (tensor<i1>) -> tensor<8x8xf32>
    %after = {AFTER}
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %after : tensor<i32>, tensor<8x8xf32>
  }
  return %r#1 : tensor<8x8xf32>
}"""
    head = """func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %c12 = stablehlo.constant dense<12> : tensor<i32>"""
    sine = "stablehlo.sine %acc : tensor<8x8xf32>"
    product = ("stablehlo.dot_general %acc, %acc, contracting_dims = [1] x [0] : "
               "(tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>")
    read_after = "stablehlo.add %a, %y : tensor<8x8xf32>"
    not_read = "stablehlo.add %a, %acc : tensor<8x8xf32>"
    assert _count(head + body.replace("{Y}", sine).replace("{AFTER}", read_after)) == 1
    assert _count(head + body.replace("{Y}", product).replace("{AFTER}", read_after)) == 0
    assert _count(head + body.replace("{Y}", sine).replace("{AFTER}", not_read)) == 0
    returned = body.replace("%n = stablehlo.negate %acc : tensor<8x8xf32>\n      ", "")
    returned = returned.replace("stablehlo.return %n :", "stablehlo.return %acc :")
    assert "return %acc :" in returned
    assert _count(head + returned.replace("{Y}", sine).replace("{AFTER}", read_after)) == 0
