"""shlo-canonicalize-scatter on random dimension numbers (batching dims, windows on indexed dims,
index vector dim anywhere, inserted dims anywhere) with partly out-of-bounds indices, run on
IREE's CPU and Vulkan backends and checked against the StableHLO reference interpreter. One
module of many functions per target."""
import numpy as np
import pytest

from conftest import vulkan_or_skip
from gather_scatter_programs import scatter
from reference_oracle import (assert_matches_reference, check_all, compile_functions,
                              evaluate, function_name)

RNG = np.random.default_rng(2024)
CASES = [scatter(RNG, f"s{k}", "f32" if k % 3 == 0 else "i32") for k in range(12)]

# Hand-written: a window straddling the operand's edge keeps its in-bounds elements (the spec
# drops update elements one by one, not whole windows); unsigned indices; two inputs;
# complex elements (padded by concatenation: IREE crashes on a complex stablehlo.pad).
EDGE = """func.func @edge(%x: tensor<6x4xi32>, %i: tensor<3x1xi32>, %u: tensor<3x3x4xi32>) -> tensor<6x4xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<6x4xi32>, tensor<3x1xi32>, tensor<3x3x4xi32>) -> tensor<6x4xi32>
  return %0 : tensor<6x4xi32>
}"""
UNSIGNED = """func.func @unsigned(%x: tensor<3x5xf32>, %i: tensor<2xui8>, %u: tensor<2x3xf32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<2xui8>, tensor<2x3xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}"""
VARIADIC = """func.func @variadic(%x: tensor<4x3xf32>, %y: tensor<4x3xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>, %v: tensor<2x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<f32>
    %2 = stablehlo.multiply %b, %d : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xi32>
}"""
COMPLEX = """func.func @complex(%x: tensor<4x3xcomplex<f32>>, %i: tensor<2x1xi32>, %u: tensor<2x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
    %1 = stablehlo.add %a, %b : tensor<complex<f32>>
    stablehlo.return %1 : tensor<complex<f32>>
  }) : (tensor<4x3xcomplex<f32>>, tensor<2x1xi32>, tensor<2x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  return %0 : tensor<4x3xcomplex<f32>>
}"""
HAND = [
    (EDGE, [np.arange(24, dtype=np.int32).reshape(6, 4), np.array([[-2], [4], [9]], np.int32),
            np.full((3, 3, 4), 100, np.int32)]),
    (UNSIGNED, [np.zeros((3, 5), np.float32), np.array([4, 200], np.uint8),
                np.arange(6, dtype=np.float32).reshape(2, 3)]),
    (VARIADIC, [np.ones((4, 3), np.float32), np.full((4, 3), 2, np.int32),
                np.array([[1], [1]], np.int32), np.full((2, 3), 3, np.float32),
                np.arange(6, dtype=np.int32).reshape(2, 3)]),
]
COMPLEX_ARGS = [np.ones((4, 3), np.complex64), np.array([[2], [7]], np.int32),
                np.full((2, 3), 1 + 2j, np.complex64)]
ALL = CASES + HAND
CPU = ALL + [(COMPLEX, COMPLEX_ARGS)]
VULKAN = CASES[:4] + HAND           # Vulkan compiles cost more: a subset


@pytest.fixture(scope="module")
def cpu(ctx):
    return compile_functions(ctx, CPU, "cpu")


@pytest.mark.parametrize("case", ALL, ids=[function_name(t) for t, _ in ALL])
@pytest.mark.every_case
def test_scatter_matches_the_reference_interpreter_on_cpu(cpu, case):
    assert_matches_reference(cpu, case)


def test_complex_scatter_drops_the_out_of_bounds_row(cpu):
    # numpy oracle (the interpreter's Python bindings take no complex arrays): row 2 gets
    # 1+2j added, the update for row 7 is dropped
    want = COMPLEX_ARGS[0].copy()
    want[2] += 1 + 2j
    np.testing.assert_array_equal(cpu.function("complex")(*COMPLEX_ARGS), want)


def test_the_reference_keeps_the_in_bounds_part_of_a_straddling_window():
    # the oracle itself: rows 0, 4 and 5 are updated, the window starting at 9 is dropped
    got = evaluate(EDGE, HAND[0][1])[0]
    assert (got[[0, 4, 5]] >= 100).all() and (got[1:4] < 100).all()


def test_scatter_on_vulkan(ctx):
    vulkan_or_skip()
    check_all(ctx, VULKAN, "vulkan")
