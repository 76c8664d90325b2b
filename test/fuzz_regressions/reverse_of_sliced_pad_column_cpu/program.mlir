module {
  func.func @main(%arg0: tensor<1x1x2xf32>, %arg1: tensor<3x8xf32>) -> tensor<1x3x1xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [0, 2, 1], high = [1, 0, 0], interior = [0, 0, 0] : (tensor<1x1x2xf32>, tensor<f32>) -> tensor<2x3x3xf32>
    %1 = stablehlo.slice %0 [1:2, 0:3, 0:1] : (tensor<2x3x3xf32>) -> tensor<1x3x1xf32>
    %2 = stablehlo.reverse %1, dims = [0, 1] : tensor<1x3x1xf32>
    return %2 : tensor<1x3x1xf32>
  }
}
