module {
  func.func @main(%arg0: tensor<128xf32>, %arg1: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<128xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<128xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<128xcomplex<f32>>
    %3 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<128xcomplex<f32>>, tensor<128xcomplex<f32>>) -> tensor<128xi1>
    %4 = stablehlo.select %3, %2, %0 : tensor<128xi1>, tensor<128xcomplex<f32>>
    %5 = stablehlo.divide %0, %4 : tensor<128xcomplex<f32>>
    %6 = stablehlo.real %5 : (tensor<128xcomplex<f32>>) -> tensor<128xf32>
    %7 = stablehlo.imag %5 : (tensor<128xcomplex<f32>>) -> tensor<128xf32>
    return %6, %7 : tensor<128xf32>, tensor<128xf32>
  }
}
