module {
  func.func @main(%arg0: tensor<2xui16>, %arg1: tensor<1x4x1x1xi8>) -> tensor<1x1x1x1xi8> {
    %0 = stablehlo.convert %arg0 : (tensor<2xui16>) -> tensor<2xi8>
    %c = stablehlo.constant dense<0> : tensor<i8>
    %1 = stablehlo.pad %0, %c, low = [0], high = [14], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<16xi8>
    %2 = stablehlo.reshape %1 : (tensor<16xi8>) -> tensor<1x2x4x2xi8>
    %3 = stablehlo.convolution(%arg1, %2) dim_numbers = [b, f, 1, 0]x[o, 0, i, 1]->[0, f, 1, b], window = {stride = [3, 3], pad = [[0, 1], [1, 0]], lhs_dilate = [1, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1x1xi8>, tensor<1x2x4x2xi8>) -> tensor<1x1x1x1xi8>
    return %3 : tensor<1x1x1x1xi8>
  }
}
