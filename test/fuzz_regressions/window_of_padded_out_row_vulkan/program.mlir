module {
  func.func @main(%arg0: tensor<1x3xi32>) -> tensor<1x5xi32> {
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %0 = "stablehlo.reduce_window"(%arg0, %c) <{base_dilations = array<i64: 1, 2>, padding = dense<[[1, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %1 = stablehlo.minimum %arg1, %arg2 : tensor<i32>
      stablehlo.return %1 : tensor<i32>
    }) : (tensor<1x3xi32>, tensor<i32>) -> tensor<1x5xi32>
    return %0 : tensor<1x5xi32>
  }
}
