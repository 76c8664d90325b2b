module {
  func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.rsqrt %arg0 : tensor<4xf32>
    %1 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
    %2 = stablehlo.real %1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %3 = stablehlo.is_finite %2 : (tensor<4xf32>) -> tensor<4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.select %3, %2, %4 : tensor<4xi1>, tensor<4xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %6 = stablehlo.clamp %cst_0, %5, %cst_1 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.imag %1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %8 = stablehlo.is_finite %7 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.select %8, %7, %9 : tensor<4xi1>, tensor<4xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %11 = stablehlo.clamp %cst_3, %10, %cst_4 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %12 = stablehlo.complex %6, %11 : tensor<4xcomplex<f32>>
    %13 = stablehlo.fft %12, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %14 = stablehlo.real %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %15 = stablehlo.imag %13 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    return %14, %15 : tensor<4xf32>, tensor<4xf32>
  }
}
