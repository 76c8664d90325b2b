module {
  func.func @main(%arg0: tensor<1x1xf32>, %arg1: tensor<0xf64>) -> tensor<1x4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<1x1xf32>) -> tensor<1x1xbf16>
    %1 = stablehlo.convert %arg1 : (tensor<0xf64>) -> tensor<0xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [1], interior = [0] : (tensor<0xbf16>, tensor<bf16>) -> tensor<1xbf16>
    %3 = stablehlo.reshape %2 : (tensor<1xbf16>) -> tensor<bf16>
    %4 = stablehlo.pad %0, %3, low = [0, 1], high = [1, 2], interior = [0, 0] : (tensor<1x1xbf16>, tensor<bf16>) -> tensor<2x4xbf16>
    %5 = stablehlo.slice %4 [1:2, 0:4] : (tensor<2x4xbf16>) -> tensor<1x4xbf16>
    %6 = stablehlo.convert %5 : (tensor<1x4xbf16>) -> tensor<1x4xf32>
    return %6 : tensor<1x4xf32>
  }
}
