// RUN: shlo-opt --shlo-legalize-gpu-ops %s | filecheck %s

// Float maximum: NaN wherever an operand is NaN (IREE's CUDA code drops NaNs).
// CHECK-LABEL: func.func @max
// CHECK-DAG:     %[[NAN:.*]] = stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK-DAG:     %[[M:.*]] = stablehlo.maximum %arg0, %arg1 {shlo.canonical} : tensor<4xf32>
// CHECK-DAG:     %[[A:.*]] = stablehlo.compare NE, %arg0, %arg0, FLOAT
// CHECK-DAG:     %[[B:.*]] = stablehlo.compare NE, %arg1, %arg1, FLOAT
// CHECK:         %[[E:.*]] = stablehlo.or %[[A]], %[[B]] : tensor<4xi1>
// CHECK:         %[[F:.*]] = stablehlo.broadcast_in_dim %[[NAN]], dims = []
// CHECK:         %[[R:.*]] = stablehlo.select %[[E]], %[[F]], %[[M]]
// CHECK:         return %[[R]]
func.func @max(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.maximum %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A max reduce: a second reduce of the NaN flags with `or`.
// CHECK-LABEL: func.func @reduce_max
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.or across dimensions = [1]
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [1]
// CHECK:         stablehlo.select
func.func @reduce_max(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1]
       : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// A gather from a matrix column reads it behind a barrier.
// CHECK-LABEL: func.func @gather_from_column
// CHECK:         %[[S:.*]] = stablehlo.slice
// CHECK:         %[[V:.*]] = stablehlo.reshape %[[S]]
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %[[V]]
// CHECK:         "stablehlo.gather"(%[[B]],
func.func @gather_from_column(%a: tensor<16x16xf32>, %i: tensor<16x1xi32>) -> tensor<16xf32> {
  %c = stablehlo.slice %a [0:16, 0:1] : (tensor<16x16xf32>) -> tensor<16x1xf32>
  %v = stablehlo.reshape %c : (tensor<16x1xf32>) -> tensor<16xf32>
  %g = "stablehlo.gather"(%v, %i) {dimension_numbers = #stablehlo.gather<
         collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
       slice_sizes = array<i64: 1>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
  return %g : tensor<16xf32>
}

// Negative: integer maximum, and a gather from an argument, are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.compare
// CHECK-NOT:     optimization_barrier
// CHECK:         return
func.func @left_alone(%a: tensor<4xi32>, %b: tensor<4xi32>, %t: tensor<16xf32>,
                      %i: tensor<16x1xi32>) -> (tensor<4xi32>, tensor<16xf32>) {
  %0 = stablehlo.maximum %a, %b : tensor<4xi32>
  %g = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<
         collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
       slice_sizes = array<i64: 1>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
  return %0, %g : tensor<4xi32>, tensor<16xf32>
}
