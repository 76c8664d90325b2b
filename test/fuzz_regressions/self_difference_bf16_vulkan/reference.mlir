module {
  func.func @main(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<64xf32>) -> tensor<64xbf16>
    %1 = stablehlo.subtract %0, %0 : tensor<64xbf16>
    %2 = stablehlo.convert %1 : (tensor<64xbf16>) -> tensor<64xf32>
    return %2 : tensor<64xf32>
  }
}
