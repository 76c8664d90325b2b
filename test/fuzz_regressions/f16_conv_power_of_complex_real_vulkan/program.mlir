module {
  func.func @main(%arg0: tensor<1xf16>, %arg1: tensor<64xcomplex<f32>>, %arg2: tensor<64xcomplex<f32>>) -> tensor<8x1x1x3xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.pad %arg0, %cst, low = [0], high = [95], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<96xf16>
    %1 = stablehlo.reshape %0 : (tensor<96xf16>) -> tensor<8x2x3x2xf16>
    %2 = stablehlo.slice %1 [0:8, 0:2, 1:3, 0:2] : (tensor<8x2x3x2xf16>) -> tensor<8x2x2x2xf16>
    %3 = stablehlo.real %arg1 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %4 = stablehlo.convert %3 : (tensor<64xf32>) -> tensor<64xf16>
    %5 = stablehlo.slice %4 [0:24] : (tensor<64xf16>) -> tensor<24xf16>
    %6 = stablehlo.reshape %5 : (tensor<24xf16>) -> tensor<2x2x2x3xf16>
    %7 = stablehlo.is_finite %2 : (tensor<8x2x2x2xf16>) -> tensor<8x2x2x2xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<8x2x2x2xf16>
    %9 = stablehlo.select %7, %2, %8 : tensor<8x2x2x2xi1>, tensor<8x2x2x2xf16>
    %cst_1 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %10 = stablehlo.clamp %cst_1, %9, %cst_2 : (tensor<f16>, tensor<8x2x2x2xf16>, tensor<f16>) -> tensor<8x2x2x2xf16>
    %11 = stablehlo.is_finite %6 : (tensor<2x2x2x3xf16>) -> tensor<2x2x2x3xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f16>) -> tensor<2x2x2x3xf16>
    %13 = stablehlo.select %11, %6, %12 : tensor<2x2x2x3xi1>, tensor<2x2x2x3xf16>
    %cst_4 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_5 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %14 = stablehlo.clamp %cst_4, %13, %cst_5 : (tensor<f16>, tensor<2x2x2x3xf16>, tensor<f16>) -> tensor<2x2x2x3xf16>
    %15 = stablehlo.convolution(%10, %14) dim_numbers = [b, f, 0, 1]x[i, 0, 1, o]->[b, 1, 0, f], window = {stride = [1, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x2x2x2xf16>, tensor<2x2x2x3xf16>) -> tensor<8x1x1x3xf16>
    %16 = stablehlo.real %arg2 : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
    %17 = stablehlo.convert %16 : (tensor<64xf32>) -> tensor<64xf16>
    %18 = stablehlo.slice %17 [0:24] : (tensor<64xf16>) -> tensor<24xf16>
    %19 = stablehlo.reshape %18 : (tensor<24xf16>) -> tensor<8x1x1x3xf16>
    %20 = stablehlo.abs %15 : tensor<8x1x1x3xf16>
    %21 = stablehlo.power %20, %19 : tensor<8x1x1x3xf16>
    return %21 : tensor<8x1x1x3xf16>
  }
}
