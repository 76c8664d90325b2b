module {
  func.func @main(%x: tensor<6x1x4x3xi16>, %n: tensor<2x4x3x2xi8>) -> tensor<2x1x2x5xi16> {
    %w = stablehlo.convert %n : (tensor<2x4x3x2xi8>) -> tensor<2x4x3x2xi16>
    %r = stablehlo.convolution(%x, %w) dim_numbers = [0, b, 1, f]x[1, 0, i, o]->[0, b, f, 1],
           window = {stride = [2, 1], pad = [[1, 0], [1, 2]], rhs_dilate = [1, 2]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
           : (tensor<6x1x4x3xi16>, tensor<2x4x3x2xi16>) -> tensor<2x1x2x5xi16>
    return %r : tensor<2x1x2x5xi16>
  }
}
