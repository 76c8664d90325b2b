module {
  func.func @main(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
    %0 = stablehlo.subtract %arg0, %arg0 : tensor<64xbf16>
    return %0 : tensor<64xbf16>
  }
}
