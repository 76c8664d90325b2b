module {
  func.func @main(%arg0: tensor<2x7xf32>) -> (tensor<3x12xf32>, tensor<3x12xf32>) {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<2x7xf32>, tensor<2x7xf32>) -> tensor<2x7xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x7xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<2x7xi1>, tensor<2x7xf32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %3 = "stablehlo.reduce_window"(%2, %cst_0) <{base_dilations = array<i64: 2, 2>, padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 2, 1>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %21 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      stablehlo.return %21 : tensor<f32>
    }) : (tensor<2x7xf32>, tensor<f32>) -> tensor<3x12xf32>
    %4 = stablehlo.convert %3 : (tensor<3x12xf32>) -> tensor<3x12xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xf32>
    %6 = stablehlo.is_finite %5 : (tensor<3x12xf32>) -> tensor<3x12xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %8 = stablehlo.select %6, %5, %7 : tensor<3x12xi1>, tensor<3x12xf32>
    %cst_2 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %9 = stablehlo.clamp %cst_2, %8, %cst_3 : (tensor<f32>, tensor<3x12xf32>, tensor<f32>) -> tensor<3x12xf32>
    %10 = stablehlo.imag %4 : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xf32>
    %11 = stablehlo.is_finite %10 : (tensor<3x12xf32>) -> tensor<3x12xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x12xf32>
    %13 = stablehlo.select %11, %10, %12 : tensor<3x12xi1>, tensor<3x12xf32>
    %cst_5 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %14 = stablehlo.clamp %cst_5, %13, %cst_6 : (tensor<f32>, tensor<3x12xf32>, tensor<f32>) -> tensor<3x12xf32>
    %15 = stablehlo.complex %9, %14 : tensor<3x12xcomplex<f32>>
    %16 = stablehlo.fft %15, type = IFFT, length = [12] : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %17 = stablehlo.convert %3 : (tensor<3x12xf32>) -> tensor<3x12xcomplex<f32>>
    %18 = stablehlo.subtract %16, %17 : tensor<3x12xcomplex<f32>>
    %19 = stablehlo.real %18 : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xf32>
    %20 = stablehlo.imag %18 : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xf32>
    return %19, %20 : tensor<3x12xf32>, tensor<3x12xf32>
  }
}
