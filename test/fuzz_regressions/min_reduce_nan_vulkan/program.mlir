module {
  func.func @main(%arg0: tensor<32768xf32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.minimum across dimensions = [0] : (tensor<32768xf32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
}
