module {
  func.func @main(%arg0: tensor<16x1x2x3xf16>) -> tensor<1x2xf16> {
    %cst = stablehlo.constant dense<0x7C00> : tensor<f16>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.minimum across dimensions = [0, 3] : (tensor<16x1x2x3xf16>, tensor<f16>) -> tensor<1x2xf16>
    return %0 : tensor<1x2xf16>
  }
}
