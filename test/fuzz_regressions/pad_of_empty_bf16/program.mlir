module {
  func.func @main(%arg0: tensor<1x1xbf16>, %arg1: tensor<0xf64>) -> tensor<1x4xbf16> {
    %0 = stablehlo.convert %arg1 : (tensor<0xf64>) -> tensor<0xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [1], interior = [0] : (tensor<0xbf16>, tensor<bf16>) -> tensor<1xbf16>
    %2 = stablehlo.reshape %1 : (tensor<1xbf16>) -> tensor<bf16>
    %3 = stablehlo.pad %arg0, %2, low = [0, 1], high = [1, 2], interior = [0, 0] : (tensor<1x1xbf16>, tensor<bf16>) -> tensor<2x4xbf16>
    %4 = stablehlo.slice %3 [1:2, 0:4] : (tensor<2x4xbf16>) -> tensor<1x4xbf16>
    return %4 : tensor<1x4xbf16>
  }
}
