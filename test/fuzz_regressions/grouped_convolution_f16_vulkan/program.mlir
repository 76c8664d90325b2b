module {
  func.func @main(%arg0: tensor<f16>) -> tensor<2x4x3xf16> {
    %0 = stablehlo.reshape %arg0 : (tensor<f16>) -> tensor<1xf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [35], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<36xf16>
    %2 = stablehlo.reshape %1 : (tensor<36xf16>) -> tensor<3x3x4xf16>
    %3 = stablehlo.reshape %arg0 : (tensor<f16>) -> tensor<1xf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %4 = stablehlo.pad %3, %cst_0, low = [0], high = [15], interior = [0] : (tensor<1xf16>, tensor<f16>) -> tensor<16xf16>
    %5 = stablehlo.reshape %4 : (tensor<16xf16>) -> tensor<1x4x4xf16>
    %6 = stablehlo.convolution(%2, %5) dim_numbers = [0, b, f]x[i, 0, o]->[0, f, b], window = {stride = [1], pad = [[-1, 1]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<3x3x4xf16>, tensor<1x4x4xf16>) -> tensor<2x4x3xf16>
    return %6 : tensor<2x4x3xf16>
  }
}
