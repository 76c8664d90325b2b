module {
  func.func @main(%arg0: tensor<1xcomplex<f32>>, %arg1: tensor<64x3xi1>) -> (tensor<1xf32>, tensor<complex<f32>>) {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<1xcomplex<f32>>
    cond {
      %8 = stablehlo.compare LT, %iterArg, %iterArg_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %cst_4 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %9 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
      %10 = stablehlo.subtract %iterArg_2, %9 : tensor<1xcomplex<f32>>
      stablehlo.return %8, %iterArg_1, %10 : tensor<i32>, tensor<i32>, tensor<1xcomplex<f32>>
    }
    %1 = stablehlo.real %arg0 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %2 = stablehlo.convert %arg1 : (tensor<64x3xi1>) -> tensor<64x3xf32>
    %3 = stablehlo.reshape %2 : (tensor<64x3xf32>) -> tensor<192xf32>
    %4 = stablehlo.slice %3 [0:1] : (tensor<192xf32>) -> tensor<1xf32>
    %5 = stablehlo.real %0#2 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %6 = stablehlo.clamp %4, %1, %5 : tensor<1xf32>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %7 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    return %6, %7 : tensor<1xf32>, tensor<complex<f32>>
  }
}
