"""shlo-copy-updated-operands: a value that a dynamic_update_slice, scatter or sort updates in
place while another op reads it comes back right for both: IREE 3.13 ran the reader after the
update on the updated buffer (cpu and vulkan, silently, also without shlo's passes). jax
programs at real sizes against numpy, on cpu and vulkan.
docs/iree_gaps.md#shlo-copy-updated-operands"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import shlo.jax


def _target(target):
    if target == "vulkan":
        from conftest import vulkan_or_skip
        vulkan_or_skip()


def _exact_ints(shape, seed):
    """Small integers as f32: products and sums of them are exact in any order."""
    return np.random.default_rng(seed).integers(-8, 8, shape).astype(np.float32)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_product_read_and_updated(target):
    """y = x @ x.T (512 x 512), returned as abs(y) and with rows 2-3 set to 1: abs(y) read
    the updated rows on the cpu."""
    _target(target)

    def f(x, i):
        y = x @ x.T
        return jnp.abs(y), x * 2, jax.lax.dynamic_update_slice(y, jnp.ones((2, 512)), (i, 0))
    x = _exact_ints((512, 64), 0)
    got = [np.asarray(r) for r in shlo.jax.jit(f, target=target)(x, np.int32(2))]
    y = x @ x.T
    updated = y.copy()
    updated[2:4] = 1
    for k, (g, w) in enumerate(zip(got, (np.abs(y), x * 2, updated))):
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


def _cumulative(update):
    """y = cumsum(x) read by abs and by `update`, beside x.astype(f32), with its arguments."""
    def sort(x):
        y = jnp.cumsum(x, axis=0)
        return jnp.abs(y), x.astype(jnp.float32), jax.lax.sort(y, dimension=0, is_stable=False)

    def dynamic_update_slice(x, i):
        y = jnp.cumsum(x, axis=0)
        ones = jnp.ones((2,) + y.shape[1:], y.dtype)
        return jnp.abs(y), x.astype(jnp.float32), jax.lax.dynamic_update_slice(y, ones, (i, 0, 0))

    def scatter(x, idx):
        y = jnp.cumsum(x, axis=0)
        return jnp.abs(y), x.astype(jnp.float32), y.at[idx].add(1)
    return {"sort": sort, "dynamic_update_slice": dynamic_update_slice, "scatter": scatter}[update]


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
@pytest.mark.parametrize("shape", [(64, 3, 5), (1000, 7, 3)])
@pytest.mark.parametrize("update", ["dynamic_update_slice", "sort", "scatter"])
def test_cumulative_sum_read_and_updated(target, update, shape):
    """y = cumsum(x) of i32[64, 3, 5] and [1000, 7, 3], read by abs and updated by a
    dynamic_update_slice, a sort along it or a scatter-add: abs(y) came back updated or sorted
    (the dynamic_update_slice and the sort, cpu and vulkan)."""
    _target(target)
    f = _cumulative(update)
    fn = shlo.jax.jit(f, target=target)
    rng = np.random.default_rng(1)
    x = rng.integers(-1000, 1000, shape).astype(np.int32)
    y = np.cumsum(x, axis=0, dtype=np.int32)
    u = y.copy()
    if update == "sort":
        args, u = (x,), np.sort(y, axis=0)
    elif update == "dynamic_update_slice":
        args = (x, np.int32(2))
        u[2:4] = 1
    else:
        idx = rng.integers(0, shape[0], 9).astype(np.int32)
        args = (x, idx)
        np.add.at(u, idx, 1)
    got = [np.asarray(r) for r in fn(*args)]
    for k, (g, w) in enumerate(zip(got, (np.abs(y), x.astype(np.float32), u))):
        np.testing.assert_array_equal(g, w, err_msg=f"result {k}")


CLZ_AND_SORT = """func.func @main(%x: tensor<7x4x1xi64>, %i: tensor<5x1xi32>) -> (tensor<7x4x1xi64>, tensor<7x4x1xf32>, tensor<7x4x1xi64>, tensor<64xf32>) {
  %io = stablehlo.iota dim = 0 : tensor<7x4x1xi64>
  %y = stablehlo.add %x, %io : tensor<7x4x1xi64>
  %c = stablehlo.count_leading_zeros %y : tensor<7x4x1xi64>
  %f = stablehlo.convert %x : (tensor<7x4x1xi64>) -> tensor<7x4x1xf32>
  %s = "stablehlo.sort"(%y) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<7x4x1xi64>) -> tensor<7x4x1xi64>
  %z = stablehlo.constant dense<0.0> : tensor<64xf32>
  %u = stablehlo.constant dense<1.0> : tensor<5xf32>
  %h = "stablehlo.scatter"(%z, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<64xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<64xf32>
  return %c, %f, %s, %h : tensor<7x4x1xi64>, tensor<7x4x1xf32>, tensor<7x4x1xi64>, tensor<64xf32>
}"""


def test_fuzz_program_with_a_scatter():
    """Fuzz seed 165 program 223, reduced: count_leading_zeros(x + iota) and a sort of x + iota
    in a function with a scatter (the cpu target then compiles without IREE's aggressive
    fusion): the counts were of the sorted values, 14 of 28 wrong."""
    import shlo
    x = np.random.default_rng(2).integers(-20, 20, (7, 4, 1)).astype(np.int64)
    i = np.array([[1], [2], [3], [1], [60]], np.int32)
    c, f, s, h = (np.asarray(r) for r in shlo.compile(CLZ_AND_SORT, target="cpu")(x, i))
    y = x + np.arange(7).reshape(7, 1, 1)
    np.testing.assert_array_equal(
        c, np.array([64 - int(v).bit_length() if v >= 0 else 0 for v in y.ravel()]).reshape(y.shape))
    np.testing.assert_array_equal(f, x.astype(np.float32))
    np.testing.assert_array_equal(s, np.sort(y, axis=0))
    want = np.zeros(64, np.float32)
    np.add.at(want, i[:, 0], 1)
    np.testing.assert_array_equal(h, want)


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_two_updates_of_one_value_get_two_copies(target):
    """Fuzz seed 186 program 182 (test/fuzz_regressions/two_scatters_into_copies_of_one_buffer):
    two select_and_scatters of one operand shape expand to two scatters into one zero buffer,
    and the pass gave both the same copy, `select(true, zeros, 0)` twice, which IREE's CSE made
    one value: each result came back as the other's, silently, on cpu and vulkan. The second
    copy of a value now selects by a true of its own. Replayed against the reference
    interpreter and XLA."""
    import os

    from conftest import vulkan_or_skip
    from shlo.tools.fuzz import fuzz
    from shlo.tools.fuzz.runner import InProcess
    if target == "vulkan":
        vulkan_or_skip()
    here = os.path.join(os.path.dirname(__file__), "..", "fuzz_regressions",
                        "two_scatters_into_copies_of_one_buffer")
    assert fuzz.replay(here, target, InProcess()) is None


def test_each_copy_of_a_value_selects_by_a_true_of_its_own(ctx):
    """The pass's IR: two scatters of one computed value get copies by two different trues."""
    from shlo.passes.pipeline import run_pipeline
    from shlo.module_io import parse_module
    text = """func.func @main(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %z = stablehlo.multiply %x, %x : tensor<8xf32>
  %a = "stablehlo.scatter"(%z, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    stablehlo.return %q : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  %b = "stablehlo.scatter"(%z, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    stablehlo.return %q : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}"""
    module = parse_module(text)
    run_pipeline(module, "shlo-copy-updated-operands, cse")
    scatters = [op for op in module.body.operations[0].regions[0].blocks[0].operations
                if op.name == "stablehlo.scatter"]
    copies = [s.operands[0].owner for s in scatters]
    assert all(c.name == "stablehlo.select" for c in copies)
    assert copies[0] != copies[1] and copies[0].operands[0] != copies[1].operands[0]
