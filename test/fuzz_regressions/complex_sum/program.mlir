func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<complex<f32>> {
  %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
  %0 = stablehlo.reduce(%a init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}
