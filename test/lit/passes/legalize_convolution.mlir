// RUN: shlo-opt --shlo-legalize-convolution %s | filecheck %s

// Window reversal becomes a reverse of the kernel's spatial dimensions (NHWC/HWIO here).
// CHECK-LABEL: func.func @reversal
// CHECK:         %[[K:.*]] = stablehlo.reverse %arg1, dims = [0] : tensor<3x2x2x4xf32>
// CHECK:         stablehlo.convolution(%arg0, %[[K]])
// CHECK-NOT:     reverse =
// CHECK-SAME:    feature_group_count = 2
func.func @reversal(%x: tensor<1x6x5x4xf32>, %w: tensor<3x2x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x6x5x4xf32>, tensor<3x2x2x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// One output position: no stride, and the input past the window padded away.
// CHECK-LABEL: func.func @single_output
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 0, 0], high = [0, 0, -1], interior = [0, 0, 0] : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x1x3xf32>
// CHECK:         stablehlo.convolution(%[[P]], %arg1) {{.*}} window = {stride = [1], pad = {{\[\[}}0, 0]], lhs_dilate = [1]}
func.func @single_output(%x: tensor<1x1x4xf32>, %w: tensor<2x1x3xf32>) -> tensor<1x2x1xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x4xf32>, tensor<2x1x3xf32>) -> tensor<1x2x1xf32>
  return %r : tensor<1x2x1xf32>
}

// Negative padding with lhs dilation: one pad does the dilation (interior) and the padding.
// CHECK-LABEL: func.func @negative_padding
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 0, -1], high = [0, 0, 2], interior = [0, 0, 1] : (tensor<1x1x5xf32>, tensor<f32>) -> tensor<1x1x10xf32>
// CHECK:         stablehlo.convolution(%[[P]], %arg1) {{.*}}pad = {{\[\[}}0, 0]], lhs_dilate = [1]
func.func @negative_padding(%x: tensor<1x1x5xf32>, %w: tensor<1x1x3xf32>) -> tensor<1x1x8xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[-1, 2]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5xf32>, tensor<1x1x3xf32>) -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

// Negative: strides over several output positions and non-negative padding stay.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     stablehlo.pad
// CHECK:         window = {stride = [2], pad = {{\[\[}}1, 0]]}
func.func @untouched(%x: tensor<1x1x6xf32>, %w: tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x6xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  return %r : tensor<1x1x3xf32>
}

// A convolution of an empty operand is zeros.
// CHECK-LABEL: func.func @empty_operand
// CHECK-NOT:     stablehlo.convolution
// CHECK:         stablehlo.constant dense<0.000000e+00> : tensor<2x3x6xf32>
func.func @empty_operand(%x: tensor<2x0x8xf32>, %w: tensor<3x0x3xf32>) -> tensor<2x3x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x0x8xf32>, tensor<3x0x3xf32>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}
