// RUN: shlo-opt --shlo-guard-square-sums %s | filecheck %s

// A sum of squares reads them through maximum(x * x, 0).
// CHECK-LABEL: func.func @row_norms
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x256xf32>
// CHECK:         %[[SQ:.*]] = stablehlo.multiply %arg0, %arg0 : tensor<8x256xf32>
// CHECK:         %[[G:.*]] = stablehlo.maximum %[[SQ]], %[[Z]] : tensor<8x256xf32>
// CHECK:         stablehlo.reduce(%[[G]] init: %{{.*}}) applies stablehlo.add across dimensions = [1]
func.func @row_norms(%x: tensor<8x256xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<8x256xf32>
  %0 = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Negative: a product of two values, a variance (the square of x minus its mean), an integer
// sum of squares and a maximum of squares stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     stablehlo.maximum %
// CHECK:         return
func.func @unchanged(%x: tensor<8x256xf32>, %y: tensor<8x256xf32>, %i: tensor<8x256xi32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %xy = stablehlo.multiply %x, %y : tensor<8x256xf32>
  %0 = stablehlo.reduce(%xy init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
  %m = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x256xf32>
  %d = stablehlo.subtract %x, %m : tensor<8x256xf32>
  %dd = stablehlo.multiply %d, %d : tensor<8x256xf32>
  %1 = stablehlo.reduce(%dd init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
  %ii = stablehlo.multiply %i, %i : tensor<8x256xi32>
  %2 = stablehlo.reduce(%ii init: %zi) applies stablehlo.add across dimensions = [1] : (tensor<8x256xi32>, tensor<i32>) -> tensor<8xi32>
  %xx = stablehlo.multiply %x, %x : tensor<8x256xf32>
  %3 = stablehlo.reduce(%xx init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>
}
