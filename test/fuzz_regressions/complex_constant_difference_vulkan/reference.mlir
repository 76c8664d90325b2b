module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<complex<f32>>
    %1 = stablehlo.real %0 : (tensor<complex<f32>>) -> tensor<f32>
    %2 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.select %2, %cst, %1 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : tensor<f32>
    %5 = stablehlo.convert %4 : (tensor<f32>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %6 = stablehlo.remainder %5, %c : tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %10 = stablehlo.negate %0 : tensor<complex<f32>>
      stablehlo.return %10 : tensor<complex<f32>>
    }, {
      %10 = stablehlo.negate %0 : tensor<complex<f32>>
      stablehlo.return %10 : tensor<complex<f32>>
    }, {
      %cst_2 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<complex<f32>>
      %11 = stablehlo.subtract %0, %10 : tensor<complex<f32>>
      stablehlo.return %11 : tensor<complex<f32>>
    }) : (tensor<i32>) -> tensor<complex<f32>>
    %8 = stablehlo.real %7 : (tensor<complex<f32>>) -> tensor<f32>
    %9 = stablehlo.imag %7 : (tensor<complex<f32>>) -> tensor<f32>
    return %8, %9 : tensor<f32>, tensor<f32>
  }
}
