"""shlo-canonicalize-gather on random dimension numbers (operand batching dims, collapsed dims,
index vector dim anywhere or implicit) with partly out-of-bounds start indices, which the spec
clamps, run on IREE's CPU and Vulkan backends and checked against the StableHLO reference
interpreter. One module of many functions per target."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from gather_scatter_programs import gather
from reference_oracle import (assert_matches_reference, check_all, compile_functions,
                              evaluate, function_name)

RNG = np.random.default_rng(99)
CASES = [gather(RNG, f"g{k}") for k in range(14)]

# Hand-written: 64-bit unsigned indices far beyond the operand clamp to its last slice.
UNSIGNED = """func.func @unsigned(%x: tensor<5x3xf32>, %i: tensor<3x1xui64>) -> tensor<3x2x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 3>, indices_are_sorted = false}> : (tensor<5x3xf32>, tensor<3x1xui64>) -> tensor<3x2x3xf32>
  return %0 : tensor<3x2x3xf32>
}"""
HAND = (UNSIGNED, [np.arange(15, dtype=np.float32).reshape(5, 3),
                   np.array([[1], [2**40], [2**63 - 1]], np.uint64)])
ALL = CASES + [HAND]
VULKAN = CASES[:6]                  # Vulkan compiles cost more: a subset


@pytest.fixture(scope="module")
def cpu(ctx):
    return compile_functions(ctx, ALL, "cpu")


@pytest.mark.parametrize("case", ALL, ids=[function_name(t) for t, _ in ALL])
@pytest.mark.every_case
def test_gather_matches_the_reference_interpreter_on_cpu(cpu, case):
    assert_matches_reference(cpu, case)


def test_the_oracle_clamps_out_of_bounds_starts():
    x = HAND[1][0]
    np.testing.assert_array_equal(evaluate(*HAND)[0], np.stack([x[1:3], x[3:5], x[3:5]]))


def test_gather_on_vulkan(ctx):
    vulkan_or_skip()
    check_all(ctx, VULKAN, "vulkan")


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_shape_polymorphic_table_lookups_from_jax(target):
    """jax's `table[i]` for a symbolic number of indices gathers with `tensor<?x1xi32>` starts,
    which IREE 3.13 alone rejects ("'stablehlo.reshape' op result #0 must be statically
    shaped"); rows of a matrix too. numpy is the oracle, for several lengths of one
    executable."""
    if target == "vulkan":
        vulkan_or_skip()
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import export

    import shlo
    table = RNG.standard_normal((7, 3)).astype(np.float32)
    lookups = {"elements": (lambda i: jnp.asarray(table[:, 0])[i], lambda i: table[i, 0]),
               "rows": (lambda i: jnp.asarray(table)[i] * 2.0, lambda i: table[i] * 2.0)}
    for name, (jax_fn, numpy_fn) in lookups.items():
        spec = jax.ShapeDtypeStruct(export.symbolic_shape("n"), np.int32)
        text = export.export(jax.jit(jax_fn))(spec).mlir_module()
        exe = shlo.compile(text, target=target)
        for n in (1, 5, 12):
            i = RNG.integers(-7, 7, n).astype(np.int32)        # negative: from the end
            np.testing.assert_array_equal(np.asarray(exe(i)), numpy_fn(i), err_msg=name)
