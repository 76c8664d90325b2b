module {
  func.func @main(%arg0: tensor<3x8x1xf16>) -> tensor<4x3x5xf16> {
    %cst = stablehlo.constant dense<0x7C00> : tensor<f16>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 2, 1, 1>, padding = dense<[[0, 0], [1, 0], [0, 1]]> : tensor<3x2xi64>, window_dilations = array<i64: 2, 1, 2>, window_dimensions = array<i64: 2, 3, 1>, window_strides = array<i64: 1, 2, 2>}> ({
    ^bb0(%arg1: tensor<f16>, %arg2: tensor<f16>):
      %5 = stablehlo.minimum %arg1, %arg2 : tensor<f16>
      stablehlo.return %5 : tensor<f16>
    }) : (tensor<3x8x1xf16>, tensor<f16>) -> tensor<3x4x1xf16>
    %1 = stablehlo.reshape %arg0 : (tensor<3x8x1xf16>) -> tensor<24xf16>
    %2 = stablehlo.slice %1 [0:20] : (tensor<24xf16>) -> tensor<20xf16>
    %3 = stablehlo.reshape %2 : (tensor<20xf16>) -> tensor<4x1x5xf16>
    %4 = stablehlo.dot_general %0, %3, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<3x4x1xf16>, tensor<4x1x5xf16>) -> tensor<4x3x5xf16>
    return %4 : tensor<4x3x5xf16>
  }
}
