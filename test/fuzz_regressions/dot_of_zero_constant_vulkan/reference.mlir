module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<0xf32>) -> tensor<2x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg1, %cst, low = [0], high = [16], interior = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.reshape %0 : (tensor<16xf32>) -> tensor<2x8xf32>
    %2 = stablehlo.dot_general %arg0, %1, contracting_dims = [] x [] : (tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    return %2 : tensor<2x8xf32>
  }
}
