module {
  func.func @main(%arg0: tensor<3x651xf32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.cosine %arg0 : tensor<3x651xf32>
    %1 = stablehlo.reshape %0 : (tensor<3x651xf32>) -> tensor<1953xf32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<1953xf32>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.remainder %arg1, %3 : tensor<f32>
    return %4 : tensor<f32>
  }
}
