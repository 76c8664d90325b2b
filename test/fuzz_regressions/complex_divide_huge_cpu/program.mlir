module {
  func.func @main(%arg0: tensor<128xcomplex<f32>>) -> tensor<128xcomplex<f32>> {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<128xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<128xcomplex<f32>>
    %2 = stablehlo.compare EQ, %arg0, %0, FLOAT : (tensor<128xcomplex<f32>>, tensor<128xcomplex<f32>>) -> tensor<128xi1>
    %3 = stablehlo.select %2, %1, %arg0 : tensor<128xi1>, tensor<128xcomplex<f32>>
    %4 = stablehlo.divide %arg0, %3 : tensor<128xcomplex<f32>>
    return %4 : tensor<128xcomplex<f32>>
  }
}
