module {
  func.func @main(%arg0: tensor<ui32>) -> tensor<complex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<ui32>) -> tensor<complex<f32>>
    %1 = stablehlo.sqrt %0 : tensor<complex<f32>>
    return %1 : tensor<complex<f32>>
  }
}
