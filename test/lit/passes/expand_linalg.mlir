// RUN: shlo-opt --shlo-expand-linalg %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-linalg %S/Inputs/expand_linalg_dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR

// A left lower solve: a loop over the rows, a masked row times the solution so far.
// CHECK-LABEL: func.func @solve
// CHECK-NOT:     stablehlo.triangular_solve
// CHECK:         stablehlo.while
// CHECK:           stablehlo.dynamic_slice %arg0, {{.*}} sizes = [2, 1, 3]
// CHECK:           stablehlo.compare  LT
// CHECK:           stablehlo.dot_general {{.*}} batching_dims = [0] x [0], contracting_dims = [2] x [1]
// CHECK:           stablehlo.divide
// CHECK:           stablehlo.dynamic_update_slice
func.func @solve(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// Right side, adjoint, unit diagonal: b and the result are transposed, a is conjugated, and
// nothing divides by the diagonal.
// CHECK-LABEL: func.func @solve_right_adjoint
// CHECK:         stablehlo.transpose %arg1, dims = [1, 0]
// CHECK:         stablehlo.negate
// CHECK:         stablehlo.while
// CHECK-NOT:       stablehlo.divide
// CHECK:         stablehlo.transpose {{.*}} dims = [1, 0]
func.func @solve_right_adjoint(%a: tensor<3x3xcomplex<f32>>, %b: tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @cholesky
// CHECK-NOT:     stablehlo.cholesky
// CHECK:         stablehlo.while
// CHECK:           stablehlo.sqrt
func.func @cholesky(%a: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<4x4xf64>) -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// ERR: expand_linalg_dynamic.mlir:3:8: error: shlo-expand-linalg: stablehlo.cholesky with the dynamic shape tensor<?x?xf32> is not supported
