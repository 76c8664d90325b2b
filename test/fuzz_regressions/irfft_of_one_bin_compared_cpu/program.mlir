module {
  func.func @main(%arg0: tensor<9x7x1xbf16>) -> tensor<9x7x1xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<9x7x1xbf16>) -> tensor<9x7x1xf32>
    %1 = stablehlo.is_finite %0 : (tensor<9x7x1xf32>) -> tensor<9x7x1xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9x7x1xf32>
    %3 = stablehlo.select %1, %0, %2 : tensor<9x7x1xi1>, tensor<9x7x1xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<f32>, tensor<9x7x1xf32>, tensor<f32>) -> tensor<9x7x1xf32>
    %5 = stablehlo.fft %4, type = RFFT, length = [7, 1] : (tensor<9x7x1xf32>) -> tensor<9x7x1xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<1xf32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [2] : (tensor<1xf32>) -> tensor<9x7x1xf32>
    %7 = stablehlo.real %5 : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<9x7x1xf32>
    %9 = stablehlo.imag %5 : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %10 = stablehlo.multiply %9, %6 : tensor<9x7x1xf32>
    %11 = stablehlo.complex %8, %10 : tensor<9x7x1xcomplex<f32>>
    %12 = stablehlo.fft %11, type = IRFFT, length = [7, 1] : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %13 = stablehlo.convert %arg0 : (tensor<9x7x1xbf16>) -> tensor<9x7x1xf32>
    %14 = stablehlo.compare LT, %12, %13, FLOAT : (tensor<9x7x1xf32>, tensor<9x7x1xf32>) -> tensor<9x7x1xi1>
    return %14 : tensor<9x7x1xi1>
  }
}
