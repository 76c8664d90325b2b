module {
  func.func @main(%arg0: tensor<31x4x8x6xf32>, %arg1: tensor<31x4x8x6xf32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<31x4x8x6xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<31x4x8x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %2 = stablehlo.real %1 : (tensor<complex<f32>>) -> tensor<f32>
    %3 = stablehlo.imag %1 : (tensor<complex<f32>>) -> tensor<f32>
    return %2, %3 : tensor<f32>, tensor<f32>
  }
}
