module {
  func.func @main(%arg0: tensor<1x1xf16>) -> (tensor<6x3x1x1xf16>, tensor<1x1x1x3xf16>) {
    %0 = stablehlo.reshape %arg0 : (tensor<1x1xf16>) -> tensor<1xf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [107], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<108xf16>
    %2 = stablehlo.reshape %1 : (tensor<108xf16>) -> tensor<6x1x3x6xf16>
    %3 = stablehlo.reshape %arg0 : (tensor<1x1xf16>) -> tensor<1xf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %4 = stablehlo.pad %3, %cst_0, low = [0], high = [35], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<36xf16>
    %5 = stablehlo.reshape %4 : (tensor<36xf16>) -> tensor<3x1x3x4xf16>
    %6 = stablehlo.is_finite %2 : (tensor<6x1x3x6xf16>) -> tensor<6x1x3x6xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<6x1x3x6xf16>
    %8 = stablehlo.select %6, %2, %7 : tensor<6x1x3x6xi1>, tensor<6x1x3x6xf16>
    %cst_2 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_3 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %9 = stablehlo.clamp %cst_2, %8, %cst_3 : (tensor<f16>, tensor<6x1x3x6xf16>, tensor<f16>) -> tensor<6x1x3x6xf16>
    %10 = stablehlo.is_finite %5 : (tensor<3x1x3x4xf16>) -> tensor<3x1x3x4xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f16>) -> tensor<3x1x3x4xf16>
    %12 = stablehlo.select %10, %5, %11 : tensor<3x1x3x4xi1>, tensor<3x1x3x4xf16>
    %cst_5 = stablehlo.constant dense<-1.600000e+01> : tensor<f16>
    %cst_6 = stablehlo.constant dense<1.600000e+01> : tensor<f16>
    %13 = stablehlo.clamp %cst_5, %12, %cst_6 : (tensor<f16>, tensor<3x1x3x4xf16>, tensor<f16>) -> tensor<3x1x3x4xf16>
    %14 = stablehlo.convolution(%9, %13) dim_numbers = [0, 1, f, b]x[1, o, i, 0]->[b, 0, f, 1], window = {stride = [1, 2], pad = [[0, 0], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<6x1x3x6xf16>, tensor<3x1x3x4xf16>) -> tensor<6x3x1x1xf16>
    %15 = stablehlo.reshape %14 : (tensor<6x3x1x1xf16>) -> tensor<18xf16>
    %16 = stablehlo.slice %15 [0:3] : (tensor<18xf16>) -> tensor<3xf16>
    %17 = stablehlo.reshape %16 : (tensor<3xf16>) -> tensor<1x3xf16>
    %18 = stablehlo.dot_general %arg0, %17, contracting_dims = [] x [] : (tensor<1x1xf16>, tensor<1x3xf16>) -> tensor<1x1x1x3xf16>
    return %14, %18 : tensor<6x3x1x1xf16>, tensor<1x1x1x3xf16>
  }
}
