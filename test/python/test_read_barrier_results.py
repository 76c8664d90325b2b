"""shlo-read-barrier-results: a value that a function returns (or reads after the barrier)
while an optimization_barrier of it, or of a view of it, is sorted, updated by a
dynamic_update_slice or scattered into in place. IREE 3.13 wrote the update into the
returned value's buffer (fuzz seed 74 program 75); 64K elements against numpy."""
import numpy as np
import pytest

import shlo

N = 65536
T = f"tensor<{N}xf32>"
SORT = f""""stablehlo.sort"(%b) <{{dimension = 0 : i64, is_stable = false}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %lt = stablehlo.compare LT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
  }}) : ({T}) -> {T}"""
UPDATE = f"stablehlo.dynamic_update_slice %b, %u, %i : ({T}, tensor<16xf32>, tensor<i32>) -> {T}"
SCATTER = f""""stablehlo.scatter"(%b, %k, %u) <{{scatter_dimension_numbers =
      #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }}) : ({T}, tensor<16x1xi32>, tensor<16xf32>) -> {T}"""
BARRIERS = {
    "direct": f"%b = stablehlo.optimization_barrier %v : {T}",
    "view": f"""%w = stablehlo.reshape %v : ({T}) -> tensor<256x256xf32>
  %c = stablehlo.optimization_barrier %w : tensor<256x256xf32>
  %b = stablehlo.reshape %c : (tensor<256x256xf32>) -> {T}""",
}
UPDATES = {"sort": SORT, "dynamic_update_slice": UPDATE, "scatter": SCATTER}


def _program(barrier: str, update: str) -> str:
    return f"""
func.func @main(%x: {T}, %u: tensor<16xf32>, %i: tensor<i32>, %k: tensor<16x1xi32>)
    -> ({T}, {T}, {T}) {{
  %v = stablehlo.exponential %x : {T}
  {barrier}
  %s = {update}
  %n = stablehlo.negate %v : {T}
  return %v, %s, %n : {T}, {T}, {T}
}}"""


@pytest.mark.parametrize("update", list(UPDATES))
@pytest.mark.parametrize("barrier", list(BARRIERS))
@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_value_read_past_an_updated_barrier_comes_back_unchanged(target, barrier, update):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(75)
    x = rng.standard_normal(N).astype(np.float32)
    u = np.arange(16, dtype=np.float32) + 100
    i = np.int32(40000)
    k = rng.integers(0, N, (16, 1)).astype(np.int32)
    exe = shlo.compile(_program(BARRIERS[barrier], UPDATES[update]), target=target, cache=False)
    v, s, n = (np.asarray(r) for r in exe(x, u, i, k))
    want = np.exp(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(v, want, rtol=2e-6)
    np.testing.assert_allclose(n, -want, rtol=2e-6)
    if update == "sort":
        np.testing.assert_allclose(s, np.sort(want), rtol=2e-6)
    else:
        changed = want.copy()
        if update == "scatter":
            np.add.at(changed, k[:, 0], u)
        else:
            changed[40000:40016] = u
        np.testing.assert_allclose(s, changed, rtol=2e-6)


SELF_SCATTER = f"""
func.func @main(%x: {T}, %k: tensor<{N}x1xi32>) -> {T} {{
  %v = stablehlo.exponential %x : {T}
  %b = stablehlo.optimization_barrier %v : {T}
  %s = "stablehlo.scatter"(%v, %k, %b) <{{scatter_dimension_numbers =
      #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }}) : ({T}, tensor<{N}x1xi32>, {T}) -> {T}
  return %s : {T}
}}"""


@pytest.mark.parametrize("target", ["cpu", pytest.param("vulkan", marks=pytest.mark.slow)])
def test_scatter_of_a_value_into_itself_keeps_its_operand(ctx, target):
    """scatter(v, k, barrier(v)) (shlo-copy-overlapping-updates' form) keeps reading v as its
    operand: as scatter(b, k, b) IREE's vulkan compile segfaulted (fuzz seed 62 program 179)."""
    from shlo.passes.pipeline import run_pipeline
    module = shlo.parse_module(SELF_SCATTER, context=ctx)
    run_pipeline(module, "builtin.module(func.func(shlo-read-barrier-results))")
    scatter = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                   if op.operation.name == "stablehlo.scatter")
    assert scatter.operands[0] != scatter.operands[2]
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()
    rng = np.random.default_rng(62)
    x = rng.standard_normal(N).astype(np.float32)
    k = rng.integers(0, N, (N, 1)).astype(np.int32)
    got = np.asarray(shlo.compile(SELF_SCATTER, target=target, cache=False)(x, k))
    v = np.exp(x.astype(np.float64)).astype(np.float32)
    want = v.astype(np.float64)
    np.add.at(want, k[:, 0], v)
    np.testing.assert_allclose(got, want, rtol=1e-5)
