module {
  func.func @main(%arg0: tensor<2xui32>) -> tensor<1x1x4x3xui32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.pad %arg0, %c, low = [0], high = [22], interior = [0] : (tensor<2xui32>, tensor<ui32>) -> tensor<24xui32>
    %1 = stablehlo.reshape %0 : (tensor<24xui32>) -> tensor<2x3x1x4xui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %2 = stablehlo.pad %arg0, %c_0, low = [0], high = [16], interior = [0] : (tensor<2xui32>, tensor<ui32>) -> tensor<18xui32>
    %3 = stablehlo.reshape %2 : (tensor<18xui32>) -> tensor<3x1x3x2xui32>
    %4 = stablehlo.convolution(%1, %3) dim_numbers = [0, f, 1, b]x[o, i, 0, 1]->[0, 1, b, f], window = {stride = [2, 2], pad = [[0, 1], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x3x1x4xui32>, tensor<3x1x3x2xui32>) -> tensor<1x1x4x3xui32>
    return %4 : tensor<1x1x4x3xui32>
  }
}
