func.func @main(%re: tensor<4xf32>, %im: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %a = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
  %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
  %0 = stablehlo.reduce(%a init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %r = stablehlo.real %0 : (tensor<complex<f32>>) -> tensor<f32>
  %i = stablehlo.imag %0 : (tensor<complex<f32>>) -> tensor<f32>
  return %r, %i : tensor<f32>, tensor<f32>
}
