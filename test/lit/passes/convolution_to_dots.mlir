// RUN: shlo-opt --shlo-convolution-to-dots %s | filecheck %s

// NHWC/HWIO 3x3 with SAME padding and lhs dilation: one pad, then per window position a
// strided slice of the input times the kernel's matrix at that position, summed.
// CHECK-LABEL: func.func @nhwc
// CHECK-NOT:     stablehlo.transpose
// CHECK:         %[[X:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 1, 1, 0] : (tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x9x9x8xf32>
// CHECK:         %[[S0:.*]] = stablehlo.slice %[[X]] [0:2, 0:7, 0:7, 0:8]
// CHECK:         %[[L0:.*]] = stablehlo.reshape %[[S0]] : (tensor<2x7x7x8xf32>) -> tensor<98x8xf32>
// CHECK:         %[[K0:.*]] = stablehlo.slice %arg1 [0:1, 0:1, 0:8, 0:16]
// CHECK:         %[[M0:.*]] = stablehlo.reshape %[[K0]] : (tensor<1x1x8x16xf32>) -> tensor<8x16xf32>
// CHECK:         %[[D0:.*]] = stablehlo.dot_general %[[L0]], %[[M0]], contracting_dims = [1] x [0] : (tensor<98x8xf32>, tensor<8x16xf32>) -> tensor<98x16xf32>
// CHECK:         stablehlo.slice %[[X]] [0:2, 0:7, 1:8, 0:8]
// CHECK:         %[[D1:.*]] = stablehlo.dot_general
// CHECK:         stablehlo.add %[[D0]], %[[D1]]
// CHECK-COUNT-7: stablehlo.dot_general
// CHECK:         %[[Y:.*]] = stablehlo.reshape %{{.*}} : (tensor<98x16xf32>) -> tensor<2x7x7x16xf32>
// CHECK-NOT:     stablehlo.convolution
// CHECK:         return %[[Y]]
func.func @nhwc(%x: tensor<2x4x4x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<2x7x7x16xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x4x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x7x7x16xf32>
  return %r : tensor<2x7x7x16xf32>
}

// NCHW/OIHW: the input and kernel are transposed in, the result out. Strides and rhs
// dilation are the slices' strides and offsets; a reversed window dimension reads the kernel
// from its end; the precision config goes to every dot.
// CHECK-LABEL: func.func @nchw
// CHECK:         %[[X:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 3, 1] : (tensor<1x8x5x5xf32>) -> tensor<1x5x5x8xf32>
// CHECK:         %[[W:.*]] = stablehlo.transpose %arg1, dims = [2, 3, 1, 0] : (tensor<16x8x2x2xf32>) -> tensor<2x2x8x16xf32>
// CHECK:         stablehlo.slice %[[X]] [0:1, 0:3:2, 0:3, 0:8]
// CHECK:         stablehlo.slice %[[W]] [1:2, 0:1, 0:8, 0:16]
// CHECK:         stablehlo.dot_general {{.*}} precision = [HIGHEST, HIGHEST]
// CHECK:         stablehlo.slice %[[X]] [0:1, 0:3:2, 2:5, 0:8]
// CHECK:         stablehlo.slice %[[W]] [1:2, 1:2, 0:8, 0:16]
// CHECK:         stablehlo.slice %[[X]] [0:1, 1:4:2, 0:3, 0:8]
// CHECK:         stablehlo.slice %[[W]] [0:1, 0:1, 0:8, 0:16]
// CHECK:         %[[Y:.*]] = stablehlo.reshape %{{.*}} : (tensor<6x16xf32>) -> tensor<1x2x3x16xf32>
// CHECK:         %[[R:.*]] = stablehlo.transpose %[[Y]], dims = [0, 3, 1, 2] : (tensor<1x2x3x16xf32>) -> tensor<1x16x2x3xf32>
// CHECK:         return %[[R]]
func.func @nchw(%x: tensor<1x8x5x5xf32>, %w: tensor<16x8x2x2xf32>) -> tensor<1x16x2x3xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], rhs_dilate = [1, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x8x5x5xf32>, tensor<16x8x2x2xf32>) -> tensor<1x16x2x3xf32>
  return %r : tensor<1x16x2x3xf32>
}

// Negative: narrow output features, a 1x1 window, groups, f16 and dynamic shapes stay
// convolutions (the matmul form is slower there, or not the measured case).
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-5: stablehlo.convolution
// CHECK-NOT:     stablehlo.dot_general
func.func @untouched(%x: tensor<1x6x6x8xf32>, %w4: tensor<3x3x8x4xf32>, %w1: tensor<1x1x8x16xf32>,
                     %wg: tensor<3x3x4x16xf32>, %xh: tensor<1x6x6x8xf16>, %wh: tensor<3x3x8x16xf16>,
                     %xd: tensor<?x6x6x8xf32>, %w: tensor<3x3x8x16xf32>)
    -> (tensor<1x4x4x4xf32>, tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf16>, tensor<?x4x4x16xf32>) {
  %a = stablehlo.convolution(%x, %w4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<1x4x4x4xf32>
  %b = stablehlo.convolution(%x, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x8xf32>, tensor<1x1x8x16xf32>) -> tensor<1x6x6x16xf32>
  %c = stablehlo.convolution(%x, %wg) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x6x6x8xf32>, tensor<3x3x4x16xf32>) -> tensor<1x4x4x16xf32>
  %d = stablehlo.convolution(%xh, %wh) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x8xf16>, tensor<3x3x8x16xf16>) -> tensor<1x4x4x16xf16>
  %e = stablehlo.convolution(%xd, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x6x8xf32>, tensor<3x3x8x16xf32>) -> tensor<?x4x4x16xf32>
  return %a, %b, %c, %d, %e : tensor<1x4x4x4xf32>, tensor<1x6x6x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf16>, tensor<?x4x4x16xf32>
}
