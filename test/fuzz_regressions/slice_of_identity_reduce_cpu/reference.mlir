module {
  func.func @main(%arg0: tensor<16x1024xf32>) -> tensor<2x435xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<16x1024xf32>) -> tensor<16x1024xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [] : (tensor<16x1024xbf16>, tensor<bf16>) -> tensor<16x1024xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<16x1024xbf16>
    %3 = stablehlo.compare EQ, %1, %2, FLOAT : (tensor<16x1024xbf16>, tensor<16x1024xbf16>) -> tensor<16x1024xi1>
    %4 = stablehlo.select %3, %2, %1 : tensor<16x1024xi1>, tensor<16x1024xbf16>
    %5 = stablehlo.slice %4 [2:8:3, 114:549] : (tensor<16x1024xbf16>) -> tensor<2x435xbf16>
    %6 = stablehlo.convert %5 : (tensor<2x435xbf16>) -> tensor<2x435xf32>
    return %6 : tensor<2x435xf32>
  }
}
