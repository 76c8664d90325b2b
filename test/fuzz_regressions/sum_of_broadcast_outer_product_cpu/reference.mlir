module {
  func.func @main(%arg0: tensor<3x1xf32>) -> tensor<f32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x1x3xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<3x1xf32>) -> tensor<3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [12], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<15xf32>
    %3 = stablehlo.reshape %2 : (tensor<15xf32>) -> tensor<5x3xf32>
    %4 = stablehlo.dot_general %0, %3, contracting_dims = [] x [] : (tensor<3x1x3xf32>, tensor<5x3xf32>) -> tensor<3x1x3x5x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [0, 1, 2, 3, 4] : (tensor<3x1x3x5x3xf32>, tensor<f32>) -> tensor<f32>
    return %5 : tensor<f32>
  }
}
