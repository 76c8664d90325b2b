module {
  func.func @main(%arg0: tensor<128xbf16>) -> tensor<129xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 1>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %1 = stablehlo.add %arg1, %arg2 : tensor<bf16>
      stablehlo.return %1 : tensor<bf16>
    }) : (tensor<128xbf16>, tensor<bf16>) -> tensor<129xbf16>
    return %0 : tensor<129xbf16>
  }
}
