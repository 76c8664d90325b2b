module {
  func.func @main(%arg0: tensor<16xbf16>) -> tensor<3xbf16> {
    %0 = stablehlo.slice %arg0 [3:9:2] : (tensor<16xbf16>) -> tensor<3xbf16>
    %1 = stablehlo.reverse %0, dims = [0] : tensor<3xbf16>
    return %1 : tensor<3xbf16>
  }
}
