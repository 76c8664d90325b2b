module {
  func.func @main(%arg0: tensor<64xf16>) -> tensor<3x33xf16> {
    %cst = stablehlo.constant dense<0xFC00> : tensor<f16>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1>, padding = dense<1> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
    ^bb0(%arg1: tensor<f16>, %arg2: tensor<f16>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f16>
      stablehlo.return %2 : tensor<f16>
    }) : (tensor<64xf16>, tensor<f16>) -> tensor<33xf16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<33xf16>) -> tensor<3x33xf16>
    return %1 : tensor<3x33xf16>
  }
}
