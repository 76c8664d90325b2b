module {
  func.func @main(%arg0: tensor<3x2x1x1xi64>) -> tensor<1x1x1x1xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<3x2x1x1xi64>) -> tensor<3x2x1x1xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<3x2x1x1xcomplex<f32>>) -> tensor<3x2x1x1xf32>
    %2 = stablehlo.is_finite %1 : (tensor<3x2x1x1xf32>) -> tensor<3x2x1x1xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x2x1x1xf32>
    %4 = stablehlo.select %2, %1, %3 : tensor<3x2x1x1xi1>, tensor<3x2x1x1xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<3x2x1x1xf32>, tensor<f32>) -> tensor<3x2x1x1xf32>
    %6 = stablehlo.imag %0 : (tensor<3x2x1x1xcomplex<f32>>) -> tensor<3x2x1x1xf32>
    %7 = stablehlo.is_finite %6 : (tensor<3x2x1x1xf32>) -> tensor<3x2x1x1xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x2x1x1xf32>
    %9 = stablehlo.select %7, %6, %8 : tensor<3x2x1x1xi1>, tensor<3x2x1x1xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %10 = stablehlo.clamp %cst_3, %9, %cst_4 : (tensor<f32>, tensor<3x2x1x1xf32>, tensor<f32>) -> tensor<3x2x1x1xf32>
    %11 = stablehlo.complex %5, %10 : tensor<3x2x1x1xcomplex<f32>>
    %12 = stablehlo.fft %11, type = IFFT, length = [1, 1] : (tensor<3x2x1x1xcomplex<f32>>) -> tensor<3x2x1x1xcomplex<f32>>
    %13 = stablehlo.exponential %12 : tensor<3x2x1x1xcomplex<f32>>
    %14 = stablehlo.slice %13 [1:2:3, 0:2:2, 0:1, 0:1:2] : (tensor<3x2x1x1xcomplex<f32>>) -> tensor<1x1x1x1xcomplex<f32>>
    return %14 : tensor<1x1x1x1xcomplex<f32>>
  }
}
