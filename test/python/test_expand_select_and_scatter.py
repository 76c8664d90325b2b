"""shlo-expand-select-and-scatter on random windows (padding, strides, windows of one element;
GE/GT/LE/LT selections with many ties), run on IREE's CPU and Vulkan backends and checked
against the StableHLO reference interpreter and, for max-pool gradients, numpy."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from reference_oracle import assert_matches_reference, check_all, compile_functions, function_name
from window_programs import select_and_scatter

RNG = np.random.default_rng(11)
CASES = [select_and_scatter(RNG, f"ss{k}") for k in range(12)]

# the gradient of a 2x2/stride-2 max pool with one row of padding on top
POOL = """func.func @pool_grad(%x: tensor<3x4xf32>, %s: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}"""
POOL_ARGS = [RNG.permutation(12).astype(np.float32).reshape(3, 4),
             np.array([[1, 2], [3, 4]], np.float32), np.float32(0)]
ALL = CASES + [(POOL, POOL_ARGS)]
VULKAN = CASES[:4] + [(POOL, POOL_ARGS)]     # Vulkan compiles cost more: a subset


@pytest.fixture(scope="module")
def cpu(ctx):
    return compile_functions(ctx, ALL, "cpu")


@pytest.mark.parametrize("case", ALL, ids=[function_name(t) for t, _ in ALL])
def test_select_and_scatter_matches_the_reference_interpreter_on_cpu(cpu, case):
    assert_matches_reference(cpu, case)


def test_max_pool_gradient_matches_numpy(cpu):
    x, source, _ = POOL_ARGS
    padded = np.vstack([np.full((1, 4), -np.inf, np.float32), x])
    want = np.zeros_like(x)
    for i in range(2):
        for j in range(2):
            window = padded[2 * i:2 * i + 2, 2 * j:2 * j + 2]
            r, c = np.unravel_index(np.argmax(window), window.shape)
            want[2 * i + r - 1, 2 * j + c] += source[i, j]
    np.testing.assert_array_equal(cpu.function("pool_grad")(*POOL_ARGS), want)


def test_select_and_scatter_on_vulkan(ctx):
    vulkan_or_skip()
    check_all(ctx, VULKAN, "vulkan")
