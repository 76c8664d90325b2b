module {
  func.func @main(%arg0: tensor<1xi32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> (tensor<6x2x3xf32>, tensor<6x2x3xf32>) {
    %0 = stablehlo.complex %arg1, %arg2 : tensor<3xcomplex<f32>>
    %cst = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.pad %0, %cst, low = [2], high = [1], interior = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.pad %1, %cst_0, low = [0], high = [90], interior = [0] : (tensor<6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<96xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<96xcomplex<f32>>) -> tensor<6x8x2xcomplex<f32>>
    %4 = stablehlo.convert %arg0 : (tensor<1xi32>) -> tensor<1xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.pad %4, %cst_1, low = [0], high = [31], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<32xcomplex<f32>>
    %6 = stablehlo.reshape %5 : (tensor<32xcomplex<f32>>) -> tensor<8x2x2xcomplex<f32>>
    %7 = stablehlo.real %3 : (tensor<6x8x2xcomplex<f32>>) -> tensor<6x8x2xf32>
    %8 = stablehlo.is_finite %7 : (tensor<6x8x2xf32>) -> tensor<6x8x2xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x8x2xf32>
    %10 = stablehlo.select %8, %7, %9 : tensor<6x8x2xi1>, tensor<6x8x2xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %11 = stablehlo.clamp %cst_3, %10, %cst_4 : (tensor<f32>, tensor<6x8x2xf32>, tensor<f32>) -> tensor<6x8x2xf32>
    %12 = stablehlo.imag %3 : (tensor<6x8x2xcomplex<f32>>) -> tensor<6x8x2xf32>
    %13 = stablehlo.is_finite %12 : (tensor<6x8x2xf32>) -> tensor<6x8x2xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x8x2xf32>
    %15 = stablehlo.select %13, %12, %14 : tensor<6x8x2xi1>, tensor<6x8x2xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %16 = stablehlo.clamp %cst_6, %15, %cst_7 : (tensor<f32>, tensor<6x8x2xf32>, tensor<f32>) -> tensor<6x8x2xf32>
    %17 = stablehlo.complex %11, %16 : tensor<6x8x2xcomplex<f32>>
    %18 = stablehlo.real %6 : (tensor<8x2x2xcomplex<f32>>) -> tensor<8x2x2xf32>
    %19 = stablehlo.is_finite %18 : (tensor<8x2x2xf32>) -> tensor<8x2x2xi1>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x2x2xf32>
    %21 = stablehlo.select %19, %18, %20 : tensor<8x2x2xi1>, tensor<8x2x2xf32>
    %cst_9 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %22 = stablehlo.clamp %cst_9, %21, %cst_10 : (tensor<f32>, tensor<8x2x2xf32>, tensor<f32>) -> tensor<8x2x2xf32>
    %23 = stablehlo.imag %6 : (tensor<8x2x2xcomplex<f32>>) -> tensor<8x2x2xf32>
    %24 = stablehlo.is_finite %23 : (tensor<8x2x2xf32>) -> tensor<8x2x2xi1>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x2x2xf32>
    %26 = stablehlo.select %24, %23, %25 : tensor<8x2x2xi1>, tensor<8x2x2xf32>
    %cst_12 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %27 = stablehlo.clamp %cst_12, %26, %cst_13 : (tensor<f32>, tensor<8x2x2xf32>, tensor<f32>) -> tensor<8x2x2xf32>
    %28 = stablehlo.complex %22, %27 : tensor<8x2x2xcomplex<f32>>
    %29 = stablehlo.convolution(%17, %28) dim_numbers = [b, f, 0]x[i, 0, o]->[b, f, 0], window = {stride = [1], pad = [[2, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<6x8x2xcomplex<f32>>, tensor<8x2x2xcomplex<f32>>) -> tensor<6x2x3xcomplex<f32>>
    %30 = stablehlo.real %29 : (tensor<6x2x3xcomplex<f32>>) -> tensor<6x2x3xf32>
    %31 = stablehlo.imag %29 : (tensor<6x2x3xcomplex<f32>>) -> tensor<6x2x3xf32>
    return %30, %31 : tensor<6x2x3xf32>, tensor<6x2x3xf32>
  }
}
