module {
  func.func @main(%arg0: tensor<ui32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.convert %arg0 : (tensor<ui32>) -> tensor<complex<f32>>
    %1 = stablehlo.sqrt %0 : tensor<complex<f32>>
    %2 = stablehlo.real %1 : (tensor<complex<f32>>) -> tensor<f32>
    %3 = stablehlo.imag %1 : (tensor<complex<f32>>) -> tensor<f32>
    return %2, %3 : tensor<f32>, tensor<f32>
  }
}
