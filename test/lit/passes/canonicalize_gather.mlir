// RUN: shlo-opt --shlo-canonicalize-gather %s | filecheck %s
// Start indices are clamped to [0, shape(operand) - slice_sizes] as the spec says; batching
// dimensions become collapsed dimensions indexed by an iota.

// CHECK-LABEL: func.func @clamped
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[HIGH:.*]] = stablehlo.constant dense<3> : tensor<1xi32>
// CHECK:         %[[UPPER:.*]] = stablehlo.broadcast_in_dim %[[HIGH]], dims = [1] : (tensor<1xi32>) -> tensor<4x1xi32>
// CHECK:         %[[I:.*]] = stablehlo.clamp %[[ZERO]], %arg1, %[[UPPER]]
// CHECK:         "stablehlo.gather"(%arg0, %[[I]])
// CHECK-SAME:      offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1
// CHECK-SAME:      {shlo.canonical} : (tensor<6x5xf32>, tensor<4x1xi32>) -> tensor<4x3x5xf32>
func.func @clamped(%x: tensor<6x5xf32>, %i: tensor<4x1xi32>) -> tensor<4x3x5xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 3, 5>, indices_are_sorted = false}> : (tensor<6x5xf32>, tensor<4x1xi32>) -> tensor<4x3x5xf32>
  return %0 : tensor<4x3x5xf32>
}

// Unsigned 32-bit indices are widened to i64 before the arithmetic.
// CHECK-LABEL: func.func @batching
// CHECK:         %[[W:.*]] = stablehlo.convert %arg1 : (tensor<2x3x1xui32>) -> tensor<2x3x1xi64>
// CHECK:         %[[B0:.*]] = stablehlo.iota dim = 1 : tensor<2x3x1xi64>
// CHECK:         %[[B1:.*]] = stablehlo.iota dim = 0 : tensor<2x3x1xi64>
// CHECK:         %[[V:.*]] = stablehlo.concatenate %[[W]], %[[B0]], %[[B1]], dim = 2
// CHECK:         %[[C:.*]] = stablehlo.clamp {{.*}}, %[[V]], {{.*}} : (tensor<i64>, tensor<2x3x3xi64>, tensor<2x3x3xi64>)
// CHECK:         "stablehlo.gather"(%arg0, %[[C]])
// CHECK-SAME:      offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [2, 0, 1], index_vector_dim = 2
// CHECK-NOT:       batching
// CHECK-SAME:      -> tensor<2x3x4xf32>
func.func @batching(%x: tensor<3x2x5xf32>, %i: tensor<2x3x1xui32>) -> tensor<2x3x4xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [1, 0], start_index_map = [2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>, indices_are_sorted = false}> : (tensor<3x2x5xf32>, tensor<2x3x1xui32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// Negative: a gather already rewritten (shlo.canonical) and one with dynamic shapes stay.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.clamp
// CHECK:         "stablehlo.gather"(%arg0, %arg1)
// CHECK:         "stablehlo.gather"(%arg2, %arg3)
func.func @left_alone(%x: tensor<6x5xf32>, %i: tensor<4x1xi32>, %dx: tensor<?x5xf32>, %di: tensor<?x2xi32>) -> (tensor<4x3x5xf32>, tensor<?x1x5xf32>) {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 3, 5>, indices_are_sorted = false}> {shlo.canonical} : (tensor<6x5xf32>, tensor<4x1xi32>) -> tensor<4x3x5xf32>
  %1 = "stablehlo.gather"(%dx, %di) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>, indices_are_sorted = false}> : (tensor<?x5xf32>, tensor<?x2xi32>) -> tensor<?x1x5xf32>
  return %0, %1 : tensor<4x3x5xf32>, tensor<?x1x5xf32>
}

// Dynamic indices with a size-1 index vector dimension last (jax's table[i] under shape
// polymorphism): IREE 3.13 rejects them, so the unit dimension is collapsed away and the index
// vector dimension becomes implicit.
// CHECK-LABEL: func.func @dynamic_unit_index_vector
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1]] : tensor<?x1xi32> into tensor<?xi32>
// CHECK:         "stablehlo.gather"(%arg0, %[[FLAT]])
// CHECK-SAME:      index_vector_dim = 1
// CHECK-SAME:      (tensor<7x3xf32>, tensor<?xi32>) -> tensor<?x3xf32>
func.func @dynamic_unit_index_vector(%x: tensor<7x3xf32>, %i: tensor<?x1xi32>) -> tensor<?x3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false}> : (tensor<7x3xf32>, tensor<?x1xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
