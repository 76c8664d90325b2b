// RUN: shlo-opt --shlo-dot-before-broadcast %s | filecheck %s

// jnp.broadcast_to(v, (32, 64)) @ w: the vector-matrix product, broadcast over the 32 rows.
// CHECK-LABEL: func.func @lhs_vector
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, HIGHEST] : (tensor<64xf32>, tensor<64x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.broadcast_in_dim %[[D]], dims = [1] : (tensor<16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    return %[[B]]
func.func @lhs_vector(%v: tensor<64xf32>, %w: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
  %d = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  return %d : tensor<32x16xf32>
}

// The rhs broadcast along its free dimension from a size-1 one, batched: the size-1
// dimension is reshaped away, the batch and contracting dimensions renumbered.
// CHECK-LABEL: func.func @rhs_size_one_batched
// CHECK:         %[[R:.*]] = stablehlo.reshape %arg1 : (tensor<4x64x1xf32>) -> tensor<4x64xf32>
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dot_general %arg0, %[[R]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:    stablehlo.broadcast_in_dim %[[D]], dims = [0, 1] : (tensor<4x32xf32>) -> tensor<4x32x16xf32>
func.func @rhs_size_one_batched(%a: tensor<4x32x64xf32>, %v: tensor<4x64x1xf32>) -> tensor<4x32x16xf32> {
  %b = stablehlo.broadcast_in_dim %v, dims = [0, 1, 2] : (tensor<4x64x1xf32>) -> tensor<4x64x16xf32>
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x16xf32>) -> tensor<4x32x16xf32>
  return %d : tensor<4x32x16xf32>
}

// A broadcast of the contracted or batch dimensions is left: the product needs them.
// CHECK-LABEL: func.func @contracted_broadcast
// CHECK:         stablehlo.broadcast_in_dim
// CHECK-NEXT:    stablehlo.dot_general {{.*}} (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
func.func @contracted_broadcast(%v: tensor<32xf32>, %w: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %b = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
  %d = stablehlo.dot_general %b, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  return %d : tensor<32x16xf32>
}
