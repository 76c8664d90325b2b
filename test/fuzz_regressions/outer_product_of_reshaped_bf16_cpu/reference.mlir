module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<5x1xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<f32>) -> tensor<bf16>
    %1 = stablehlo.convert %arg1 : (tensor<f32>) -> tensor<bf16>
    %2 = stablehlo.reshape %0 : (tensor<bf16>) -> tensor<1xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %3 = stablehlo.pad %2, %cst, low = [0], high = [4], interior = [0] : (tensor<1xbf16>, tensor<bf16>) -> tensor<5xbf16>
    %4 = stablehlo.reshape %3 : (tensor<5xbf16>) -> tensor<5x1xbf16>
    %5 = stablehlo.dot_general %1, %4, contracting_dims = [] x [] : (tensor<bf16>, tensor<5x1xbf16>) -> tensor<5x1xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<5x1xbf16>
    %7 = stablehlo.compare EQ, %5, %6, FLOAT : (tensor<5x1xbf16>, tensor<5x1xbf16>) -> tensor<5x1xi1>
    %8 = stablehlo.select %7, %6, %5 : tensor<5x1xi1>, tensor<5x1xbf16>
    %9 = stablehlo.reshape %0 : (tensor<bf16>) -> tensor<1xbf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %10 = stablehlo.pad %9, %cst_1, low = [0], high = [4], interior = [0] : (tensor<1xbf16>, tensor<bf16>) -> tensor<5xbf16>
    %11 = stablehlo.reshape %10 : (tensor<5xbf16>) -> tensor<5x1xbf16>
    %12 = stablehlo.atan2 %8, %11 : tensor<5x1xbf16>
    %13 = stablehlo.convert %12 : (tensor<5x1xbf16>) -> tensor<5x1xf32>
    return %13 : tensor<5x1xf32>
  }
}
