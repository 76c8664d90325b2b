module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<ui8>) -> (tensor<i1>, tensor<i1>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<complex<f32>>
    %1 = stablehlo.real %0 : (tensor<complex<f32>>) -> tensor<f32>
    %2 = stablehlo.imag %0 : (tensor<complex<f32>>) -> tensor<f32>
    %3 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.select %3, %cst, %1 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.550000e+02> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : tensor<f32>
    %6 = stablehlo.convert %5 : (tensor<f32>) -> tensor<ui8>
    %7 = stablehlo.compare NE, %arg2, %6, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %8 = stablehlo.convert %arg2 : (tensor<ui8>) -> tensor<i1>
    %9 = "stablehlo.if"(%8) ({
      %11 = stablehlo.not %7 : tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }, {
      stablehlo.return %7 : tensor<i1>
    }) : (tensor<i1>) -> tensor<i1>
    %10 = stablehlo.minimum %9, %7 : tensor<i1>
    return %7, %10 : tensor<i1>, tensor<i1>
  }
}
