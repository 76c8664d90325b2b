module {
  func.func @main(%arg0: tensor<16x1024xbf16>) -> tensor<2x435xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [] : (tensor<16x1024xbf16>, tensor<bf16>) -> tensor<16x1024xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<16x1024xbf16>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<16x1024xbf16>, tensor<16x1024xbf16>) -> tensor<16x1024xi1>
    %3 = stablehlo.select %2, %1, %0 : tensor<16x1024xi1>, tensor<16x1024xbf16>
    %4 = stablehlo.slice %3 [2:8:3, 114:549] : (tensor<16x1024xbf16>) -> tensor<2x435xbf16>
    return %4 : tensor<2x435xbf16>
  }
}
