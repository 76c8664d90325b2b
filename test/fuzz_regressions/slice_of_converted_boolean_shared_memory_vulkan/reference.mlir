module {
  func.func @main(%arg0: tensor<3x5208xi1>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg0 : (tensor<3x5208xi1>) -> tensor<3x5208xf32>
    %1 = stablehlo.reshape %0 : (tensor<3x5208xf32>) -> tensor<15624xf32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<15624xf32>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.subtract %arg1, %3 : tensor<f32>
    return %4 : tensor<f32>
  }
}
