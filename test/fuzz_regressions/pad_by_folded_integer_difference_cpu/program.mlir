module {
  func.func @main(%arg0: tensor<64xi32>, %arg1: tensor<33x3xbf16>) -> tensor<36x5xbf16> {
    %0 = stablehlo.subtract %arg0, %arg0 : tensor<64xi32>
    %1 = stablehlo.convert %0 : (tensor<64xi32>) -> tensor<64xbf16>
    %2 = stablehlo.slice %1 [0:1] : (tensor<64xbf16>) -> tensor<1xbf16>
    %3 = stablehlo.reshape %2 : (tensor<1xbf16>) -> tensor<bf16>
    %4 = stablehlo.pad %arg1, %3, low = [2, 2], high = [1, 0], interior = [0, 0] : (tensor<33x3xbf16>, tensor<bf16>) -> tensor<36x5xbf16>
    return %4 : tensor<36x5xbf16>
  }
}
