module {
  func.func @main(%arg0: tensor<16x25x2x32xbf16>) -> tensor<25x2xbf16> {
    %cst = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.minimum across dimensions = [0, 3] : (tensor<16x25x2x32xbf16>, tensor<bf16>) -> tensor<25x2xbf16>
    return %0 : tensor<25x2xbf16>
  }
}
