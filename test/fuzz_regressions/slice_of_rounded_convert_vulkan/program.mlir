module {
  func.func @main(%arg0: tensor<16384xf16>, %arg1: tensor<8xbf16>) -> tensor<1xbf16> {
    %0 = stablehlo.convert %arg0 : (tensor<16384xf16>) -> tensor<16384xbf16>
    %1 = stablehlo.slice %0 [0:8] : (tensor<16384xbf16>) -> tensor<8xbf16>
    %2 = stablehlo.clamp %1, %arg1, %arg1 : tensor<8xbf16>
    %3 = stablehlo.slice %2 [3:6:3] : (tensor<8xbf16>) -> tensor<1xbf16>
    return %3 : tensor<1xbf16>
  }
}
