module {
  func.func @main(%arg0: tensor<complex<f32>>, %arg1: tensor<ui8>) -> (tensor<i1>, tensor<i1>) {
    %0 = stablehlo.real %arg0 : (tensor<complex<f32>>) -> tensor<f32>
    %1 = stablehlo.imag %arg0 : (tensor<complex<f32>>) -> tensor<f32>
    %2 = stablehlo.compare NE, %0, %0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.select %2, %cst, %0 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.550000e+02> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : tensor<f32>
    %5 = stablehlo.convert %4 : (tensor<f32>) -> tensor<ui8>
    %6 = stablehlo.compare NE, %arg1, %5, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %7 = stablehlo.convert %arg1 : (tensor<ui8>) -> tensor<i1>
    %8 = "stablehlo.if"(%7) ({
      %10 = stablehlo.not %6 : tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }, {
      stablehlo.return %6 : tensor<i1>
    }) : (tensor<i1>) -> tensor<i1>
    %9 = stablehlo.minimum %8, %6 : tensor<i1>
    return %6, %9 : tensor<i1>, tensor<i1>
  }
}
