module {
  func.func @main(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<5x1xbf16> {
    %0 = stablehlo.reshape %arg0 : (tensor<bf16>) -> tensor<1xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [4], interior = [0] : (tensor<1xbf16>, tensor<bf16>) -> tensor<5xbf16>
    %2 = stablehlo.reshape %1 : (tensor<5xbf16>) -> tensor<5x1xbf16>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [] x [] : (tensor<bf16>, tensor<5x1xbf16>) -> tensor<5x1xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<5x1xbf16>
    %5 = stablehlo.compare EQ, %3, %4, FLOAT : (tensor<5x1xbf16>, tensor<5x1xbf16>) -> tensor<5x1xi1>
    %6 = stablehlo.select %5, %4, %3 : tensor<5x1xi1>, tensor<5x1xbf16>
    %7 = stablehlo.reshape %arg0 : (tensor<bf16>) -> tensor<1xbf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %8 = stablehlo.pad %7, %cst_1, low = [0], high = [4], interior = [0] : (tensor<1xbf16>, tensor<bf16>) -> tensor<5xbf16>
    %9 = stablehlo.reshape %8 : (tensor<5xbf16>) -> tensor<5x1xbf16>
    %10 = stablehlo.atan2 %6, %9 : tensor<5x1xbf16>
    return %10 : tensor<5x1xbf16>
  }
}
