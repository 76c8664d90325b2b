module {
  func.func @main(%arg0: tensor<3x3x4xi32>) -> tensor<2x2x1x2x6xbf16> {
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %0 = "stablehlo.reduce_window"(%arg0, %c) <{base_dilations = array<i64: 1, 1, 2>, padding = dense<[[0, 1], [1, 0], [1, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 2, 1, 1>, window_dimensions = array<i64: 1, 4, 3>, window_strides = array<i64: 2, 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %4 = stablehlo.minimum %arg1, %arg2 : tensor<i32>
      stablehlo.return %4 : tensor<i32>
    }) : (tensor<3x3x4xi32>, tensor<i32>) -> tensor<2x1x6xi32>
    %1 = stablehlo.convert %0 : (tensor<2x1x6xi32>) -> tensor<2x1x6xbf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2, 4] : (tensor<2x1x6xbf16>) -> tensor<2x2x1x2x6xbf16>
    %3 = stablehlo.exponential_minus_one %2 : tensor<2x2x1x2x6xbf16>
    return %3 : tensor<2x2x1x2x6xbf16>
  }
}
