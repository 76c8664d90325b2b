module {
  func.func @main(%arg0: tensor<9x7x1xf32>) -> tensor<9x7x1xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<9x7x1xf32>) -> tensor<9x7x1xbf16>
    %1 = stablehlo.convert %0 : (tensor<9x7x1xbf16>) -> tensor<9x7x1xf32>
    %2 = stablehlo.is_finite %1 : (tensor<9x7x1xf32>) -> tensor<9x7x1xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9x7x1xf32>
    %4 = stablehlo.select %2, %1, %3 : tensor<9x7x1xi1>, tensor<9x7x1xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<9x7x1xf32>, tensor<f32>) -> tensor<9x7x1xf32>
    %6 = stablehlo.fft %5, type = RFFT, length = [7, 1] : (tensor<9x7x1xf32>) -> tensor<9x7x1xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<1xf32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [2] : (tensor<1xf32>) -> tensor<9x7x1xf32>
    %8 = stablehlo.real %6 : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<9x7x1xf32>
    %10 = stablehlo.imag %6 : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %11 = stablehlo.multiply %10, %7 : tensor<9x7x1xf32>
    %12 = stablehlo.complex %9, %11 : tensor<9x7x1xcomplex<f32>>
    %13 = stablehlo.fft %12, type = IRFFT, length = [7, 1] : (tensor<9x7x1xcomplex<f32>>) -> tensor<9x7x1xf32>
    %14 = stablehlo.convert %0 : (tensor<9x7x1xbf16>) -> tensor<9x7x1xf32>
    %15 = stablehlo.compare LT, %13, %14, FLOAT : (tensor<9x7x1xf32>, tensor<9x7x1xf32>) -> tensor<9x7x1xi1>
    return %15 : tensor<9x7x1xi1>
  }
}
