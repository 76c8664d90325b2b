"""vk-long-loop-trips: a counted while loop of 256 trips or more runs its body up to 100 times
a trip on Vulkan, jax's fori_loop index (a second counter, wrapped on the device and read back
every trip) read as the loop's counter, the counter returned as `i + factor`. The rewritten
IR's shape (no Vulkan device needed), and XLA's values on Vulkan and on the CPU with the Vulkan
rules: an elementwise step, a scan writing one element of a 16K buffer a trip, a step with a
reduction, a fori_loop from a non-zero start, and loops left as they are (a prime trip count,
fewer than 256 trips)."""
import numpy as np
import pytest

import shlo
from conftest import compile_with_vulkan_rules
from shlo.passes.pipeline import run_pipeline

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

N = 16384


def _programs():
    """name -> (jax function, body copies a trip after the rewrite)."""
    def scale(x):
        return lax.fori_loop(0, 1024, lambda i, x: x * 0.999 + 1.0, x)

    def scan(x):
        def body(i, carry):
            buf, v = carry
            v = v * 0.999 + 1.0
            return lax.dynamic_update_slice(buf, v[:1] * i.astype(jnp.float32), (i,)), v
        return lax.fori_loop(0, 512, body, (jnp.zeros(N, jnp.float32), x))

    def reduction(x):
        return lax.fori_loop(0, 512, lambda i, x: x * 0.999 + jnp.sum(x) * 1e-6, x)

    def offset(x):      # the index starts at 3, the scan's counter at 0: not merged
        def body(i, buf):
            row = lax.dynamic_slice(buf, (i - 3,), (1,))
            return lax.dynamic_update_slice(buf, jnp.sin(row) + i.astype(jnp.float32), (i,))
        return lax.fori_loop(3, 3 + 256, body, x)

    def prime(x):       # 1009 trips: no factor from 2 to 100
        return lax.fori_loop(0, 1009, lambda i, x: x * 0.999 + i.astype(jnp.float32), x)

    def short(x):       # 255 trips: below the bound
        return lax.fori_loop(0, 255, lambda i, x: x * 0.999 + 1.0, x)

    return {"scale": (scale, 64), "scan": (scan, 64), "reduction": (reduction, 64),
            "offset": (offset, 32), "prime": (prime, 1), "short": (short, 1)}


def _x(name):
    size = N if name == "offset" else 1024
    return np.random.default_rng(0).uniform(-1, 1, size).astype(np.float32)


def _after_the_rules(ctx, name):
    """`name`'s program after shlo-legalize-vulkan-ops, and its only while loop."""
    f, _ = _programs()[name]
    module = shlo.parse_module(jax.jit(f).lower(_x(name)).as_text(), context=ctx)
    run_pipeline(module, "inline, shlo-legalize-vulkan-ops, canonicalize")
    loops = [op for op in module.body.operations[0].regions[0].blocks[0].operations
             if op.name == "stablehlo.while"]
    assert len(loops) == 1
    return module, loops[0]


@pytest.mark.parametrize("name", list(_programs()))
@pytest.mark.every_case
def test_the_body_runs_factor_times_a_trip(ctx, name):
    _, factor = _programs()[name]
    module, loop = _after_the_rules(ctx, name)
    body = "\n".join(str(op) for op in loop.regions[1].blocks[0].operations)
    marker = {"scan": "dynamic_update_slice", "offset": "dynamic_update_slice",
              "reduction": "stablehlo.reduce("}.get(name, "stablehlo.multiply")
    assert body.count(marker) == factor
    if name in ("scan", "scale", "reduction"):
        # the index wrap select(i < 0, i + n, i) is gone: the offset is a host value
        assert "stablehlo.select" not in body
    if factor > 1:
        term = list(loop.regions[1].blocks[0].operations)[-1]
        count = term.operands[0].owner
        assert count.name == "stablehlo.add" and count.operands[0] == \
            loop.regions[1].blocks[0].arguments[0]
        assert f"dense<{factor}>" in str(count.operands[1].owner)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("name", ["scale", "scan", "reduction", "offset"])
def test_long_loops_agree_with_xla(ctx, target, name):
    f, _ = _programs()[name]
    x = _x(name)
    text = jax.jit(f).lower(x).as_text()
    exe = compile_with_vulkan_rules(ctx, text, target)
    got = exe(x)
    want = jax.jit(f)(x)
    got = got if isinstance(got, (list, tuple)) else [got]
    want = want if isinstance(want, (list, tuple)) else [want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=2e-5)


def test_a_counter_stepped_as_one_plus_i(ctx):
    """`1 + i` (the constant first) unrolled counts each copy from the trip's counter too."""
    text = """
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.constant dense<300> : tensor<i32>
      %r:2 = stablehlo.while(%i = %c0, %y = %x) : tensor<i32>, tensor<8xf32>
      cond {
        %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
        %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<8xf32>
        %z = stablehlo.add %y, %b : tensor<8xf32>
        %j = stablehlo.add %c1, %i : tensor<i32>
        stablehlo.return %j, %z : tensor<i32>, tensor<8xf32>
      }
      return %r#1 : tensor<8xf32>
    }"""
    module = shlo.parse_module(text, context=ctx)
    run_pipeline(module, "shlo-legalize-vulkan-ops, canonicalize")
    loop = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                if op.name == "stablehlo.while")
    body = loop.regions[1].blocks[0]
    counts = [op for op in body.operations if op.name == "stablehlo.add"
              and body.arguments[0] in list(op.operands)]
    assert len(counts) == 100       # i + 1 ... i + 100, each from the trip's counter
    assert list(body.operations)[-1].operands[0] in [op.results[0] for op in counts]
