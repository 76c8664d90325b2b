module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<1x2x3xf32>) -> tensor<5x1x3x5xf32> {
    %0 = stablehlo.reshape %arg1 : (tensor<1x2x3xf32>) -> tensor<6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [4], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<10xf32>
    %2 = stablehlo.reshape %1 : (tensor<10xf32>) -> tensor<2x5xf32>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [1] x [0] : (tensor<1x2x3xf32>, tensor<2x5xf32>) -> tensor<1x3x5xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.pad %4, %cst_0, low = [0], high = [24], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<25xf32>
    %6 = stablehlo.reshape %5 : (tensor<25xf32>) -> tensor<5x5xf32>
    %7 = stablehlo.dot_general %3, %6, batching_dims = [2] x [0], contracting_dims = [] x [] : (tensor<1x3x5xf32>, tensor<5x5xf32>) -> tensor<5x1x3x5xf32>
    return %7 : tensor<5x1x3x5xf32>
  }
}
