module {
  func.func @main(%arg0: tensor<2x1xf32>) -> tensor<3x2x6x2xcomplex<f32>> {
    %0 = stablehlo.complex %arg0, %arg0 : tensor<2x1xcomplex<f32>>
    %1 = stablehlo.reshape %0 : (tensor<2x1xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [178], interior = [0] : (tensor<2xcomplex<f32>>, tensor<complex<f32>>) -> tensor<180xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<180xcomplex<f32>>) -> tensor<3x6x2x5xcomplex<f32>>
    %4 = stablehlo.reshape %0 : (tensor<2x1xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.pad %4, %cst_0, low = [0], high = [18], interior = [0] : (tensor<2xcomplex<f32>>, tensor<complex<f32>>) -> tensor<20xcomplex<f32>>
    %6 = stablehlo.reshape %5 : (tensor<20xcomplex<f32>>) -> tensor<5x1x2x2xcomplex<f32>>
    %7 = stablehlo.real %3 : (tensor<3x6x2x5xcomplex<f32>>) -> tensor<3x6x2x5xf32>
    %8 = stablehlo.is_finite %7 : (tensor<3x6x2x5xf32>) -> tensor<3x6x2x5xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x6x2x5xf32>
    %10 = stablehlo.select %8, %7, %9 : tensor<3x6x2x5xi1>, tensor<3x6x2x5xf32>
    %cst_2 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %11 = stablehlo.clamp %cst_2, %10, %cst_3 : (tensor<f32>, tensor<3x6x2x5xf32>, tensor<f32>) -> tensor<3x6x2x5xf32>
    %12 = stablehlo.imag %3 : (tensor<3x6x2x5xcomplex<f32>>) -> tensor<3x6x2x5xf32>
    %13 = stablehlo.is_finite %12 : (tensor<3x6x2x5xf32>) -> tensor<3x6x2x5xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x6x2x5xf32>
    %15 = stablehlo.select %13, %12, %14 : tensor<3x6x2x5xi1>, tensor<3x6x2x5xf32>
    %cst_5 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %16 = stablehlo.clamp %cst_5, %15, %cst_6 : (tensor<f32>, tensor<3x6x2x5xf32>, tensor<f32>) -> tensor<3x6x2x5xf32>
    %17 = stablehlo.complex %11, %16 : tensor<3x6x2x5xcomplex<f32>>
    %18 = stablehlo.real %6 : (tensor<5x1x2x2xcomplex<f32>>) -> tensor<5x1x2x2xf32>
    %19 = stablehlo.is_finite %18 : (tensor<5x1x2x2xf32>) -> tensor<5x1x2x2xi1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<5x1x2x2xf32>
    %21 = stablehlo.select %19, %18, %20 : tensor<5x1x2x2xi1>, tensor<5x1x2x2xf32>
    %cst_8 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_9 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %22 = stablehlo.clamp %cst_8, %21, %cst_9 : (tensor<f32>, tensor<5x1x2x2xf32>, tensor<f32>) -> tensor<5x1x2x2xf32>
    %23 = stablehlo.imag %6 : (tensor<5x1x2x2xcomplex<f32>>) -> tensor<5x1x2x2xf32>
    %24 = stablehlo.is_finite %23 : (tensor<5x1x2x2xf32>) -> tensor<5x1x2x2xi1>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x1x2x2xf32>
    %26 = stablehlo.select %24, %23, %25 : tensor<5x1x2x2xi1>, tensor<5x1x2x2xf32>
    %cst_11 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %27 = stablehlo.clamp %cst_11, %26, %cst_12 : (tensor<f32>, tensor<5x1x2x2xf32>, tensor<f32>) -> tensor<5x1x2x2xf32>
    %28 = stablehlo.complex %22, %27 : tensor<5x1x2x2xcomplex<f32>>
    %29 = stablehlo.convolution(%17, %28) dim_numbers = [0, b, f, 1]x[1, i, o, 0]->[1, f, b, 0], window = {stride = [2, 1], pad = [[0, 0], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<3x6x2x5xcomplex<f32>>, tensor<5x1x2x2xcomplex<f32>>) -> tensor<3x2x6x2xcomplex<f32>>
    return %29 : tensor<3x2x6x2xcomplex<f32>>
  }
}
