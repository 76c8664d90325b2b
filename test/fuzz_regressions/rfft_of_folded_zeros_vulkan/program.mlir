module {
  func.func @main(%arg0: tensor<4x8xi32>) -> tensor<4x5xcomplex<f32>> {
    %0 = stablehlo.compare GT, %arg0, %arg0, SIGNED : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
    %1 = stablehlo.convert %0 : (tensor<4x8xi1>) -> tensor<4x8xf32>
    %2 = stablehlo.is_finite %1 : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %4 = stablehlo.select %2, %1, %3 : tensor<4x8xi1>, tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %6 = stablehlo.fft %5, type = RFFT, length = [4, 8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
    return %6 : tensor<4x5xcomplex<f32>>
  }
}
