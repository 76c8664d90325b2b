module {
  func.func @main(%arg0: tensor<16xf32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<16xf32>) -> tensor<16xbf16>
    %1 = stablehlo.slice %0 [3:9:2] : (tensor<16xbf16>) -> tensor<3xbf16>
    %2 = stablehlo.reverse %1, dims = [0] : tensor<3xbf16>
    %3 = stablehlo.convert %2 : (tensor<3xbf16>) -> tensor<3xf32>
    return %3 : tensor<3xf32>
  }
}
