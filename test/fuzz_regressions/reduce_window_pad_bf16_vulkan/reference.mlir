module {
  func.func @main(%arg0: tensor<128xf32>) -> tensor<129xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<128xf32>) -> tensor<128xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = "stablehlo.reduce_window"(%0, %cst) <{base_dilations = array<i64: 1>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 1>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %3 = stablehlo.add %arg1, %arg2 : tensor<bf16>
      stablehlo.return %3 : tensor<bf16>
    }) : (tensor<128xbf16>, tensor<bf16>) -> tensor<129xbf16>
    %2 = stablehlo.convert %1 : (tensor<129xbf16>) -> tensor<129xf32>
    return %2 : tensor<129xf32>
  }
}
