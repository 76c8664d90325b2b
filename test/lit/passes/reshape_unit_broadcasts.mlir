// RUN: shlo-opt --shlo-reshape-unit-broadcasts %s | filecheck %s

// Broadcasts that only insert unit dimensions become reshapes.
// CHECK-LABEL: func.func @unit
// CHECK:         stablehlo.reshape %arg0 : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK:         stablehlo.reshape %arg1 : (tensor<3x4xf32>) -> tensor<3x1x4x1xf32>
// CHECK-NOT:     broadcast_in_dim
func.func @unit(%x: tensor<16xf32>, %y: tensor<3x4xf32>) -> (tensor<1x16xf32>, tensor<3x1x4x1xf32>) {
  %a = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [0, 2] : (tensor<3x4xf32>) -> tensor<3x1x4x1xf32>
  return %a, %b : tensor<1x16xf32>, tensor<3x1x4x1xf32>
}

// Left alone: broadcasts that copy values, a transposing one.
// CHECK-LABEL: func.func @not_unit
// CHECK-COUNT-3: stablehlo.broadcast_in_dim
// CHECK-NOT:     stablehlo.reshape
func.func @not_unit(%x: tensor<16xf32>, %y: tensor<3x4xf32>, %z: tensor<1xf32>) -> (tensor<2x16xf32>, tensor<4x3xf32>, tensor<1x5xf32>) {
  %a = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<16xf32>) -> tensor<2x16xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %c = stablehlo.broadcast_in_dim %z, dims = [0] : (tensor<1xf32>) -> tensor<1x5xf32>
  return %a, %b, %c : tensor<2x16xf32>, tensor<4x3xf32>, tensor<1x5xf32>
}
