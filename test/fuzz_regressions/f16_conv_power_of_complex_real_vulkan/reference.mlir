module {
  func.func @main(%arg0: tensor<1xf16>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<64xf32>) -> tensor<8x1x1x3xf16> {
    %0 = stablehlo.complex %arg1, %arg2 : tensor<64xcomplex<f32>>
    %1 = stablehlo.complex %arg3, %arg4 : tensor<64xcomplex<f32>>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %2 = stablehlo.pad %arg0, %cst, low = [0], high = [95], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<96xf16>
    %3 = stablehlo.reshape %2 : (tensor<96xf16>) -> tensor<8x2x3x2xf16>
    %4 = stablehlo.slice %3 [0:8, 0:2, 1:3, 0:2] : (tensor<8x2x3x2xf16>) -> tensor<8x2x2x2xf16>
    %5 = stablehlo.real %0 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %6 = stablehlo.convert %5 : (tensor<64xf32>) -> tensor<64xf16>
    %7 = stablehlo.slice %6 [0:24] : (tensor<64xf16>) -> tensor<24xf16>
    %8 = stablehlo.reshape %7 : (tensor<24xf16>) -> tensor<2x2x2x3xf16>
    %9 = stablehlo.is_finite %4 : (tensor<8x2x2x2xf16>) -> tensor<8x2x2x2xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<8x2x2x2xf16>
    %11 = stablehlo.select %9, %4, %10 : tensor<8x2x2x2xi1>, tensor<8x2x2x2xf16>
    %cst_1 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %12 = stablehlo.clamp %cst_1, %11, %cst_2 : (tensor<f16>, tensor<8x2x2x2xf16>, tensor<f16>) -> tensor<8x2x2x2xf16>
    %13 = stablehlo.is_finite %8 : (tensor<2x2x2x3xf16>) -> tensor<2x2x2x3xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f16>) -> tensor<2x2x2x3xf16>
    %15 = stablehlo.select %13, %8, %14 : tensor<2x2x2x3xi1>, tensor<2x2x2x3xf16>
    %cst_4 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_5 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %16 = stablehlo.clamp %cst_4, %15, %cst_5 : (tensor<f16>, tensor<2x2x2x3xf16>, tensor<f16>) -> tensor<2x2x2x3xf16>
    %17 = stablehlo.convolution(%12, %16) dim_numbers = [b, f, 0, 1]x[i, 0, 1, o]->[b, 1, 0, f], window = {stride = [1, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x2x2x2xf16>, tensor<2x2x2x3xf16>) -> tensor<8x1x1x3xf16>
    %18 = stablehlo.real %1 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %19 = stablehlo.convert %18 : (tensor<64xf32>) -> tensor<64xf16>
    %20 = stablehlo.slice %19 [0:24] : (tensor<64xf16>) -> tensor<24xf16>
    %21 = stablehlo.reshape %20 : (tensor<24xf16>) -> tensor<8x1x1x3xf16>
    %22 = stablehlo.abs %17 : tensor<8x1x1x3xf16>
    %23 = stablehlo.power %22, %21 : tensor<8x1x1x3xf16>
    return %23 : tensor<8x1x1x3xf16>
  }
}
