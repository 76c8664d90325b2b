module {
  func.func @main(%arg0: tensor<0xui32>, %arg1: tensor<2x0x1x1xi64>) -> tensor<2x1x1x1xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<0xui32>) -> tensor<0xi64>
    %1 = stablehlo.reshape %0 : (tensor<0xi64>) -> tensor<2x2x2x0xi64>
    %2 = stablehlo.convolution(%arg1, %1) dim_numbers = [0, f, b, 1]x[0, 1, o, i]->[f, 1, b, 0], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x0x1x1xi64>, tensor<2x2x2x0xi64>) -> tensor<2x1x1x1xi64>
    return %2 : tensor<2x1x1x1xi64>
  }
}
