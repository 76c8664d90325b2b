module {
  func.func @main(%arg0: tensor<1xi32>) -> tensor<2xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<1xi32>) -> tensor<1xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %2 = stablehlo.is_finite %1 : (tensor<1xf32>) -> tensor<1xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %4 = stablehlo.select %2, %1, %3 : tensor<1xi1>, tensor<1xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
    %6 = stablehlo.imag %0 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %7 = stablehlo.is_finite %6 : (tensor<1xf32>) -> tensor<1xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %9 = stablehlo.select %7, %6, %8 : tensor<1xi1>, tensor<1xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %10 = stablehlo.clamp %cst_3, %9, %cst_4 : (tensor<f32>, tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
    %11 = stablehlo.complex %5, %10 : tensor<1xcomplex<f32>>
    %12 = stablehlo.fft %11, type = IFFT, length = [1] : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %13 = stablehlo.abs %12 : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %15 = stablehlo.add %13, %14 : tensor<1xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %17 = stablehlo.complex %15, %16 : tensor<1xcomplex<f32>>
    %18 = stablehlo.add %12, %17 : tensor<1xcomplex<f32>>
    %19 = stablehlo.sqrt %18 : tensor<1xcomplex<f32>>
    %20 = stablehlo.convert %arg0 : (tensor<1xi32>) -> tensor<1xi1>
    %21 = stablehlo.reshape %20 : (tensor<1xi1>) -> tensor<i1>
    %22 = "stablehlo.if"(%21) ({
      %25 = stablehlo.add %19, %19 : tensor<1xcomplex<f32>>
      stablehlo.return %25 : tensor<1xcomplex<f32>>
    }, {
      %25 = stablehlo.add %19, %19 : tensor<1xcomplex<f32>>
      stablehlo.return %25 : tensor<1xcomplex<f32>>
    }) : (tensor<i1>) -> tensor<1xcomplex<f32>>
    %23 = stablehlo.convert %arg0 : (tensor<1xi32>) -> tensor<1xcomplex<f32>>
    %24 = stablehlo.concatenate %22, %23, dim = 0 : (tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    return %24 : tensor<2xcomplex<f32>>
  }
}
