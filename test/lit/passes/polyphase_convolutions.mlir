// RUN: shlo-opt --shlo-polyphase-convolutions %s | filecheck %s

// A stride-2 3x3 conv layer's input gradient (jax's NHWC): four output phases. The phase with
// 2x2 taps is a convolution of the undilated input; the three with one tap along a dimension
// are matmuls, one per tap (1 + 2 + 2); the phases stacked and merged by a reshape.
// CHECK-LABEL: func.func @input_gradient
// CHECK-NOT:     lhs_dilate = [2, 2]
// CHECK-COUNT-5: stablehlo.dot_general %{{.*}}, contracting_dims = [3] x [0] : (tensor<2x4x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x4x5xf32>
// CHECK:         stablehlo.convolution({{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}0, 1], [0, 1]], lhs_dilate = [1, 1]}{{.*}}(tensor<2x4x4x8xf32>, tensor<2x2x8x5xf32>) -> tensor<2x4x4x5xf32>
// CHECK:         %[[S:.*]] = stablehlo.concatenate {{.*}} dim = 2 : {{.*}} -> tensor<2x4x2x4x2x5xf32>
// CHECK:         %[[R:.*]] = stablehlo.reshape %[[S]] : (tensor<2x4x2x4x2x5xf32>) -> tensor<2x8x8x5xf32>
// CHECK:         return %[[R]]
func.func @input_gradient(%dy: tensor<2x4x4x8xf32>, %w: tensor<3x3x8x5xf32>) -> tensor<2x8x8x5xf32> {
  %0 = stablehlo.convolution(%dy, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x8xf32>, tensor<3x3x8x5xf32>) -> tensor<2x8x8x5xf32>
  return %0 : tensor<2x8x8x5xf32>
}

// Negative: a channels-first layout, bf16, an output size the dilation does not divide, and
// a strided window stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-4: lhs_dilate = [2, 2]
// CHECK-NOT:     stablehlo.dot_general
func.func @unchanged(%a: tensor<2x8x4x4xf32>, %wa: tensor<5x8x3x3xf32>,
                     %b: tensor<2x4x4x8xbf16>, %wb: tensor<3x3x8x5xbf16>,
                     %c: tensor<2x4x4x8xf32>, %wc: tensor<3x3x8x5xf32>)
    -> (tensor<2x5x8x8xf32>, tensor<2x8x8x5xbf16>, tensor<2x7x7x5xf32>, tensor<2x4x4x5xf32>) {
  %0 = stablehlo.convolution(%a, %wa) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x4x4xf32>, tensor<5x8x3x3xf32>) -> tensor<2x5x8x8xf32>
  %1 = stablehlo.convolution(%b, %wb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x8xbf16>, tensor<3x3x8x5xbf16>) -> tensor<2x8x8x5xbf16>
  %2 = stablehlo.convolution(%c, %wc) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x8xf32>, tensor<3x3x8x5xf32>) -> tensor<2x7x7x5xf32>
  %3 = stablehlo.convolution(%c, %wc) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x8xf32>, tensor<3x3x8x5xf32>) -> tensor<2x4x4x5xf32>
  return %0, %1, %2, %3 : tensor<2x5x8x8xf32>, tensor<2x8x8x5xbf16>, tensor<2x7x7x5xf32>, tensor<2x4x4x5xf32>
}
