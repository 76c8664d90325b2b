module {
  func.func @main(%arg0: tensor<complex<f32>>) -> tensor<complex<f32>> {
    %0 = stablehlo.real %arg0 : (tensor<complex<f32>>) -> tensor<f32>
    %1 = stablehlo.compare NE, %0, %0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.select %1, %cst, %0 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : tensor<f32>
    %4 = stablehlo.convert %3 : (tensor<f32>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %5 = stablehlo.remainder %4, %c : tensor<i32>
    %6 = "stablehlo.case"(%5) ({
      %7 = stablehlo.negate %arg0 : tensor<complex<f32>>
      stablehlo.return %7 : tensor<complex<f32>>
    }, {
      %7 = stablehlo.negate %arg0 : tensor<complex<f32>>
      stablehlo.return %7 : tensor<complex<f32>>
    }, {
      %cst_2 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<complex<f32>>
      %8 = stablehlo.subtract %arg0, %7 : tensor<complex<f32>>
      stablehlo.return %8 : tensor<complex<f32>>
    }) : (tensor<i32>) -> tensor<complex<f32>>
    return %6 : tensor<complex<f32>>
  }
}
