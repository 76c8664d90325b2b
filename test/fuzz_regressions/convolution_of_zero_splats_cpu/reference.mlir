module {
  func.func @main(%arg0: tensor<1x0x1xui32>) -> tensor<6x6x1xui32> {
    %0 = stablehlo.reshape %arg0 : (tensor<1x0x1xui32>) -> tensor<0xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %1 = stablehlo.pad %0, %c, low = [0], high = [54], interior = [0] : (tensor<0xui32>, tensor<ui32>) -> tensor<54xui32>
    %2 = stablehlo.reshape %1 : (tensor<54xui32>) -> tensor<3x6x3xui32>
    %3 = stablehlo.slice %2 [0:3, 0:6, 1:3] : (tensor<3x6x3xui32>) -> tensor<3x6x2xui32>
    %4 = stablehlo.reshape %arg0 : (tensor<1x0x1xui32>) -> tensor<0xui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %5 = stablehlo.pad %4, %c_0, low = [0], high = [24], interior = [0] : (tensor<0xui32>, tensor<ui32>) -> tensor<24xui32>
    %6 = stablehlo.reshape %5 : (tensor<24xui32>) -> tensor<4x1x6xui32>
    %7 = stablehlo.convolution(%3, %6) dim_numbers = [f, b, 0]x[0, i, o]->[b, f, 0], window = {stride = [3], pad = [[1, 1]], lhs_dilate = [2], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<3x6x2xui32>, tensor<4x1x6xui32>) -> tensor<6x6x1xui32>
    return %7 : tensor<6x6x1xui32>
  }
}
