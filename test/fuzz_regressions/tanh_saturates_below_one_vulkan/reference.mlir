module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.tanh %arg0 : tensor<f32>
    %1 = stablehlo.abs %0 : tensor<f32>
    %2 = stablehlo.power %1, %arg0 : tensor<f32>
    return %2 : tensor<f32>
  }
}
