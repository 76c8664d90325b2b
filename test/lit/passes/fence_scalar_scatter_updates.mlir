// RUN: shlo-opt --shlo-fence-scalar-scatter-updates %s | filecheck %s

// reshape(x[0:1]) as one-element updates: read as a scalar behind an optimization_barrier.
// CHECK-LABEL: func.func @sliced
// CHECK:         %[[U:.*]] = stablehlo.reshape %{{.*}} : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.reshape %[[U]] : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[S]] : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[B]] : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT:    "stablehlo.scatter"(%{{.*}}, %{{.*}}, %[[R]])
func.func @sliced(%x: tensor<2xf32>, %op: tensor<1x1xf32>, %i: tensor<1x1xi32>) -> tensor<1x1xf32> {
  %s = stablehlo.slice %x [0:1] : (tensor<2xf32>) -> tensor<1xf32>
  %u = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<1x1xf32>
  %r = "stablehlo.scatter"(%op, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<1x1xf32>, tensor<1x1xi32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// Constant updates and updates of two elements are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     optimization_barrier
func.func @left_alone(%op: tensor<4x4xf32>, %i: tensor<1x1xi32>, %j: tensor<2x1xi32>, %u2: tensor<2x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %u = stablehlo.constant dense<1.0> : tensor<1x1xf32>
  %r = "stablehlo.scatter"(%op, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<1x1xi32>, tensor<1x1xf32>) -> tensor<4x4xf32>
  %q = "stablehlo.scatter"(%op, %j, %u2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %r, %q : tensor<4x4xf32>, tensor<4x4xf32>
}

// Updates of rank 1 (never of a higher rank than a slice's source) are left alone.
// CHECK-LABEL: func.func @rank_one
// CHECK-NOT:     optimization_barrier
func.func @rank_one(%x: tensor<2xf32>, %op: tensor<8xf32>, %i: tensor<1x1xi32>) -> tensor<8xf32> {
  %u = stablehlo.slice %x [0:1] : (tensor<2xf32>) -> tensor<1xf32>
  %r = "stablehlo.scatter"(%op, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<8xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
