module {
  func.func @main(%arg0: tensor<1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<64x3xi1>) -> (tensor<1xf32>, tensor<f32>, tensor<f32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<1xcomplex<f32>>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %0) : tensor<i32>, tensor<i32>, tensor<1xcomplex<f32>>
    cond {
      %11 = stablehlo.compare LT, %iterArg, %iterArg_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %11 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %cst_4 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
      %13 = stablehlo.subtract %iterArg_2, %12 : tensor<1xcomplex<f32>>
      stablehlo.return %11, %iterArg_1, %13 : tensor<i32>, tensor<i32>, tensor<1xcomplex<f32>>
    }
    %2 = stablehlo.real %0 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %3 = stablehlo.convert %arg2 : (tensor<64x3xi1>) -> tensor<64x3xf32>
    %4 = stablehlo.reshape %3 : (tensor<64x3xf32>) -> tensor<192xf32>
    %5 = stablehlo.slice %4 [0:1] : (tensor<192xf32>) -> tensor<1xf32>
    %6 = stablehlo.real %1#2 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %7 = stablehlo.clamp %5, %2, %6 : tensor<1xf32>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %8 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %9 = stablehlo.real %8 : (tensor<complex<f32>>) -> tensor<f32>
    %10 = stablehlo.imag %8 : (tensor<complex<f32>>) -> tensor<f32>
    return %7, %9, %10 : tensor<1xf32>, tensor<f32>, tensor<f32>
  }
}
