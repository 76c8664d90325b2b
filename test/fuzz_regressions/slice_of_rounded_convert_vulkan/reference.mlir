module {
  func.func @main(%arg0: tensor<16384xf16>, %arg1: tensor<8xf32>) -> tensor<1xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<8xf32>) -> tensor<8xbf16>
    %1 = stablehlo.convert %arg0 : (tensor<16384xf16>) -> tensor<16384xbf16>
    %2 = stablehlo.slice %1 [0:8] : (tensor<16384xbf16>) -> tensor<8xbf16>
    %3 = stablehlo.clamp %2, %0, %0 : tensor<8xbf16>
    %4 = stablehlo.slice %3 [3:6:3] : (tensor<8xbf16>) -> tensor<1xbf16>
    %5 = stablehlo.convert %4 : (tensor<1xbf16>) -> tensor<1xf32>
    return %5 : tensor<1xf32>
  }
}
