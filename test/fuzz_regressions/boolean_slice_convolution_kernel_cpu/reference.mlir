module {
  func.func @main(%arg0: tensor<3x5x3xi1>) -> tensor<1x3x1xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<3x5x3xi1>) -> tensor<3x5x3xi32>
    %1 = stablehlo.convert %arg0 : (tensor<3x5x3xi1>) -> tensor<3x5x3xi32>
    %2 = stablehlo.reshape %1 : (tensor<3x5x3xi32>) -> tensor<45xi32>
    %3 = stablehlo.slice %2 [0:15] : (tensor<45xi32>) -> tensor<15xi32>
    %4 = stablehlo.reshape %3 : (tensor<15xi32>) -> tensor<3x5x1xi32>
    %5 = stablehlo.convolution(%0, %4) dim_numbers = [b, 0, f]x[i, 0, o]->[0, b, f], window = {stride = [3], pad = [[0, 2]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x5x3xi32>, tensor<3x5x1xi32>) -> tensor<1x3x1xi32>
    return %5 : tensor<1x3x1xi32>
  }
}
