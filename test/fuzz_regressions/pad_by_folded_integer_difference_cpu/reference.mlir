module {
  func.func @main(%arg0: tensor<64xi32>, %arg1: tensor<33x3xf32>) -> tensor<36x5xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<33x3xf32>) -> tensor<33x3xbf16>
    %1 = stablehlo.subtract %arg0, %arg0 : tensor<64xi32>
    %2 = stablehlo.convert %1 : (tensor<64xi32>) -> tensor<64xbf16>
    %3 = stablehlo.slice %2 [0:1] : (tensor<64xbf16>) -> tensor<1xbf16>
    %4 = stablehlo.reshape %3 : (tensor<1xbf16>) -> tensor<bf16>
    %5 = stablehlo.pad %0, %4, low = [2, 2], high = [1, 0], interior = [0, 0] : (tensor<33x3xbf16>, tensor<bf16>) -> tensor<36x5xbf16>
    %6 = stablehlo.convert %5 : (tensor<36x5xbf16>) -> tensor<36x5xf32>
    return %6 : tensor<36x5xf32>
  }
}
