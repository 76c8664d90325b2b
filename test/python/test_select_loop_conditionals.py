"""shlo-select-loop-conditionals (passes/dispatch/select_loop_conditionals.py): cheap
conditionals inside loops run as selects of every branch. A lax.cond then a lax.switch
reading a tensor of the same step failed IREE 3.13's stream scheduling on every target; each
program runs against XLA's CPU on cpu and vulkan. A `case` whose index is out of range
takes its last branch (the spec), checked against numpy."""
import numpy as np
import pytest

import shlo
import shlo.jax as shlo_jax
from conftest import vulkan_or_skip

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax


def _scan_cond_then_switch(x):
    def step(c, i):
        y = jnp.sin(c)
        a = lax.cond(i % 2 == 0, lambda: y * 2, lambda: y - 1)
        b = lax.switch(i % 3, [lambda: a, lambda: a * 0.5, lambda: -a])
        return b * 0.5 + jnp.cos(y), b[:4]
    return lax.scan(step, x, jnp.arange(20))


def _while_cond_then_switch(x):
    def body(s):
        i, c = s
        y = jnp.sin(c)
        a = lax.cond(i % 2 == 0, lambda: y * 2, lambda: y - 1)
        b = lax.switch(i % 3, [lambda: a, lambda: a * 0.5, lambda: -a])
        return i + 1, b * 0.5 + jnp.cos(y)
    return lax.while_loop(lambda s: s[0] < 13, body, (0, x))[1]


def _two_conds_of_a_reduction(x):
    def step(c, i):
        y = jnp.tanh(c)
        a = lax.cond(i % 2 == 0, lambda: jnp.abs(y).sum(), lambda: jnp.abs(y).max())
        b = lax.cond(a > 100, lambda: y * 0.9, lambda: y * 1.1)
        return b + y * 0.01, a
    return lax.scan(step, x, jnp.arange(30))


def _integer_updates(x):
    def body(k, buf):
        upd = lax.cond(k % 2 == 0, lambda: jnp.ones(64, jnp.int32) * k,
                       lambda: -jnp.ones(64, jnp.int32))
        row = lax.dynamic_slice(buf, (k * 64,), (64,))
        return lax.dynamic_update_slice(buf, row + upd, (k * 64,))
    return lax.fori_loop(0, 16, body, (x * 100).astype(jnp.int32))


PROGRAMS = {"scan_cond_then_switch": _scan_cond_then_switch,
            "while_cond_then_switch": _while_cond_then_switch,
            "two_conds_of_a_reduction": _two_conds_of_a_reduction,
            "integer_updates": _integer_updates}
X = np.random.default_rng(3).standard_normal(65536).astype(np.float32)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_loops_with_conditionals_agree_with_xla(name, target):
    if target == "vulkan":
        vulkan_or_skip()
    f = PROGRAMS[name]
    got = jax.tree.leaves(shlo_jax.jit(f, target=target)(X))
    want = jax.tree.leaves(jax.jit(f, backend="cpu")(X))
    for g, w in zip(got, want):
        w = np.asarray(w)
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-5 * np.abs(w).max())


CASE_IN_A_LOOP = """
func.func @main(%x: tensor<4096xf32>, %start: tensor<i32>) -> tensor<4096xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4096xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %k = stablehlo.add %i, %start : tensor<i32>
    %s = stablehlo.sine %v : tensor<4096xf32>
    %b = "stablehlo.case"(%k) ({
      %a = stablehlo.add %s, %v : tensor<4096xf32>
      stablehlo.return %a : tensor<4096xf32>
    }, {
      %m = stablehlo.multiply %s, %s : tensor<4096xf32>
      stablehlo.return %m : tensor<4096xf32>
    }, {
      %q = stablehlo.negate %s : tensor<4096xf32>
      stablehlo.return %q : tensor<4096xf32>
    }) : (tensor<i32>) -> tensor<4096xf32>
    stablehlo.return %n, %b : tensor<i32>, tensor<4096xf32>
  }
  return %r#1 : tensor<4096xf32>
}"""


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("start", [-3, 0, 1])
@pytest.mark.every_case
def test_a_case_out_of_range_takes_its_last_branch(target, start):
    if target == "vulkan":
        vulkan_or_skip()
    x = X[:4096]
    got = shlo.compile(CASE_IN_A_LOOP, target=target)(x, np.int32(start))
    want = x.astype(np.float64)
    for i in range(5):
        s, k = np.sin(want), i + start
        want = [s + want, s * s, -s][k if 0 <= k < 3 else 2]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
