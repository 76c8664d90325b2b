module {
  func.func @main(%arg0: tensor<16x25x2x32xf32>) -> tensor<25x2xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<16x25x2x32xf32>) -> tensor<16x25x2x32xbf16>
    %cst = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.minimum across dimensions = [0, 3] : (tensor<16x25x2x32xbf16>, tensor<bf16>) -> tensor<25x2xbf16>
    %2 = stablehlo.convert %1 : (tensor<25x2xbf16>) -> tensor<25x2xf32>
    return %2 : tensor<25x2xf32>
  }
}
