// A convolution whose padding is only known at run time (jax's strided SAME over a symbolic
// length).
func.func @strided_same(%x: tensor<1x?x4xf32>, %w: tensor<3x4x2xf32>, %pad: tensor<1x2xi32>) -> tensor<1x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %w, %pad) <{dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, window_strides = array<i64: 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x?x4xf32>, tensor<3x4x2xf32>, tensor<1x2xi32>) -> tensor<1x?x2xf32>
  return %0 : tensor<1x?x2xf32>
}
