module {
  func.func @main(%arg0: tensor<1xi32>, %arg1: tensor<3xcomplex<f32>>) -> tensor<6x2x3xcomplex<f32>> {
    %cst = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.pad %arg1, %cst, low = [2], high = [1], interior = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.pad %0, %cst_0, low = [0], high = [90], interior = [0] : (tensor<6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<96xcomplex<f32>>
    %2 = stablehlo.reshape %1 : (tensor<96xcomplex<f32>>) -> tensor<6x8x2xcomplex<f32>>
    %3 = stablehlo.convert %arg0 : (tensor<1xi32>) -> tensor<1xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.pad %3, %cst_1, low = [0], high = [31], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<32xcomplex<f32>>
    %5 = stablehlo.reshape %4 : (tensor<32xcomplex<f32>>) -> tensor<8x2x2xcomplex<f32>>
    %6 = stablehlo.real %2 : (tensor<6x8x2xcomplex<f32>>) -> tensor<6x8x2xf32>
    %7 = stablehlo.is_finite %6 : (tensor<6x8x2xf32>) -> tensor<6x8x2xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x8x2xf32>
    %9 = stablehlo.select %7, %6, %8 : tensor<6x8x2xi1>, tensor<6x8x2xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %10 = stablehlo.clamp %cst_3, %9, %cst_4 : (tensor<f32>, tensor<6x8x2xf32>, tensor<f32>) -> tensor<6x8x2xf32>
    %11 = stablehlo.imag %2 : (tensor<6x8x2xcomplex<f32>>) -> tensor<6x8x2xf32>
    %12 = stablehlo.is_finite %11 : (tensor<6x8x2xf32>) -> tensor<6x8x2xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x8x2xf32>
    %14 = stablehlo.select %12, %11, %13 : tensor<6x8x2xi1>, tensor<6x8x2xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %15 = stablehlo.clamp %cst_6, %14, %cst_7 : (tensor<f32>, tensor<6x8x2xf32>, tensor<f32>) -> tensor<6x8x2xf32>
    %16 = stablehlo.complex %10, %15 : tensor<6x8x2xcomplex<f32>>
    %17 = stablehlo.real %5 : (tensor<8x2x2xcomplex<f32>>) -> tensor<8x2x2xf32>
    %18 = stablehlo.is_finite %17 : (tensor<8x2x2xf32>) -> tensor<8x2x2xi1>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x2x2xf32>
    %20 = stablehlo.select %18, %17, %19 : tensor<8x2x2xi1>, tensor<8x2x2xf32>
    %cst_9 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %21 = stablehlo.clamp %cst_9, %20, %cst_10 : (tensor<f32>, tensor<8x2x2xf32>, tensor<f32>) -> tensor<8x2x2xf32>
    %22 = stablehlo.imag %5 : (tensor<8x2x2xcomplex<f32>>) -> tensor<8x2x2xf32>
    %23 = stablehlo.is_finite %22 : (tensor<8x2x2xf32>) -> tensor<8x2x2xi1>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x2x2xf32>
    %25 = stablehlo.select %23, %22, %24 : tensor<8x2x2xi1>, tensor<8x2x2xf32>
    %cst_12 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %26 = stablehlo.clamp %cst_12, %25, %cst_13 : (tensor<f32>, tensor<8x2x2xf32>, tensor<f32>) -> tensor<8x2x2xf32>
    %27 = stablehlo.complex %21, %26 : tensor<8x2x2xcomplex<f32>>
    %28 = stablehlo.convolution(%16, %27) dim_numbers = [b, f, 0]x[i, 0, o]->[b, f, 0], window = {stride = [1], pad = [[2, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<6x8x2xcomplex<f32>>, tensor<8x2x2xcomplex<f32>>) -> tensor<6x2x3xcomplex<f32>>
    return %28 : tensor<6x2x3xcomplex<f32>>
  }
}
