// RUN: shlo-opt --shlo-defer-softmax-division --split-input-file %s | filecheck %s

// jax's attention: softmax(s) v with the -inf guard on the row max; the weights are the lhs.
// CHECK-LABEL: func.func @jax_attention
// CHECK:         %[[E:.*]] = stablehlo.exponential
// CHECK:         %[[SUM:.*]] = stablehlo.reduce(%[[E]] init: %{{.*}}) applies stablehlo.add across dimensions = [2]
// CHECK:         %[[DOT:.*]] = stablehlo.dot_general %[[E]], %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1]
// CHECK:         %[[WIDE:.*]] = stablehlo.broadcast_in_dim %[[SUM]], dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x3xf32>
// CHECK:         %[[OUT:.*]] = stablehlo.divide %[[DOT]], %[[WIDE]] : tensor<2x4x3xf32>
// CHECK:         return %[[OUT]]
func.func @jax_attention(%s: tensor<2x4x5xf32>, %v: tensor<2x5x3xf32>) -> tensor<2x4x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<2x4x5xf32>, tensor<f32>) -> tensor<2x4xf32>
  %1 = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
  %2 = stablehlo.maximum %1, %0 : tensor<2x4xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x4x1xf32>) -> tensor<2x4x5xf32>
  %5 = stablehlo.subtract %s, %4 : tensor<2x4x5xf32>
  %6 = stablehlo.exponential %5 : tensor<2x4x5xf32>
  %7 = stablehlo.reduce(%6 init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x4x5xf32>, tensor<f32>) -> tensor<2x4xf32>
  %8 = stablehlo.reshape %7 : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
  %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x4x1xf32>) -> tensor<2x4x5xf32>
  %10 = stablehlo.divide %6, %9 : tensor<2x4x5xf32>
  %11 = stablehlo.dot_general %10, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x5xf32>, tensor<2x5x3xf32>) -> tensor<2x4x3xf32>
  return %11 : tensor<2x4x3xf32>
}

// -----

// The weights as the rhs, their softmax over dim 0, batch dim 1: the sum lands on the result's
// batch dim (0) and the rhs free dim (after the lhs free dim).
// CHECK-LABEL: func.func @weights_on_the_rhs
// CHECK:         %[[E:.*]] = stablehlo.exponential
// CHECK:         %[[SUM:.*]] = stablehlo.reduce(%[[E]] init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// CHECK:         %[[DOT:.*]] = stablehlo.dot_general %arg1, %[[E]], batching_dims = [0] x [1], contracting_dims = [2] x [0]
// CHECK:         %[[WIDE:.*]] = stablehlo.broadcast_in_dim %[[SUM]], dims = [0, 2] : (tensor<2x4xf64>) -> tensor<2x3x4xf64>
// CHECK:         stablehlo.divide %[[DOT]], %[[WIDE]]
func.func @weights_on_the_rhs(%s: tensor<5x2x4xf64>, %v: tensor<2x3x5xf64>) -> tensor<2x3x4xf64> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f64>
  %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %0 = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<5x2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<2x4xf64>) -> tensor<5x2x4xf64>
  %2 = stablehlo.subtract %s, %1 : tensor<5x2x4xf64>
  %3 = stablehlo.exponential %2 : tensor<5x2x4xf64>
  %4 = stablehlo.reduce(%3 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<5x2x4xf64>, tensor<f64>) -> tensor<2x4xf64>
  %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<2x4xf64>) -> tensor<5x2x4xf64>
  %6 = stablehlo.divide %3, %5 : tensor<5x2x4xf64>
  %7 = stablehlo.dot_general %v, %6, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<2x3x5xf64>, tensor<5x2x4xf64>) -> tensor<2x3x4xf64>
  return %7 : tensor<2x3x4xf64>
}

// -----

// Left alone: exp(s) / sum(exp(s)) without the max (the undivided dot could overflow).
// CHECK-LABEL: func.func @no_max_subtracted
// CHECK:         %[[W:.*]] = stablehlo.divide
// CHECK:         stablehlo.dot_general %[[W]], %arg1
func.func @no_max_subtracted(%s: tensor<4x5xf32>, %v: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.exponential %s : tensor<4x5xf32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %3 = stablehlo.divide %0, %2 : tensor<4x5xf32>
  %4 = stablehlo.dot_general %3, %v, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %4 : tensor<4x3xf32>
}

// -----

// Left alone: the softmax runs over dim 0, the dot contracts dim 1 (the sum is not constant
// along the contracted dim).
// CHECK-LABEL: func.func @softmax_over_another_dim
// CHECK:         %[[W:.*]] = stablehlo.divide
// CHECK:         stablehlo.dot_general %[[W]], %arg1
func.func @softmax_over_another_dim(%s: tensor<4x5xf32>, %v: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
  %2 = stablehlo.subtract %s, %1 : tensor<4x5xf32>
  %3 = stablehlo.exponential %2 : tensor<4x5xf32>
  %4 = stablehlo.reduce(%3 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
  %6 = stablehlo.divide %3, %5 : tensor<4x5xf32>
  %7 = stablehlo.dot_general %6, %v, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %7 : tensor<4x3xf32>
}

// -----

// Left alone: the weights are also a result (they would be computed twice), and the max is
// of another tensor than the one exponentiated.
// CHECK-LABEL: func.func @weights_used_twice
// CHECK:         %[[W:.*]] = stablehlo.divide
// CHECK:         stablehlo.dot_general %[[W]], %arg1
// CHECK-LABEL: func.func @max_of_another_tensor
// CHECK:         %[[W:.*]] = stablehlo.divide
// CHECK:         stablehlo.dot_general %[[W]], %arg2
func.func @weights_used_twice(%s: tensor<4x5xf32>, %v: tensor<5x3xf32>) -> (tensor<4x3xf32>, tensor<4x5xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %2 = stablehlo.subtract %s, %1 : tensor<4x5xf32>
  %3 = stablehlo.exponential %2 : tensor<4x5xf32>
  %4 = stablehlo.reduce(%3 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %6 = stablehlo.divide %3, %5 : tensor<4x5xf32>
  %7 = stablehlo.dot_general %6, %v, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %7, %6 : tensor<4x3xf32>, tensor<4x5xf32>
}
func.func @max_of_another_tensor(%s: tensor<4x5xf32>, %t: tensor<4x5xf32>, %v: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%t init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %2 = stablehlo.subtract %s, %1 : tensor<4x5xf32>
  %3 = stablehlo.exponential %2 : tensor<4x5xf32>
  %4 = stablehlo.reduce(%3 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %6 = stablehlo.divide %3, %5 : tensor<4x5xf32>
  %7 = stablehlo.dot_general %6, %v, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %7 : tensor<4x3xf32>
}
