module {
  func.func @main(%arg0: tensor<1x5x6xui8>) -> tensor<1x1x1x1xui8> {
    %0 = stablehlo.reshape %arg0 : (tensor<1x5x6xui8>) -> tensor<30xui8>
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %1 = stablehlo.pad %0, %c, low = [0], high = [18], interior = [0] : (tensor<30xui8>, tensor<ui8>) -> tensor<48xui8>
    %2 = stablehlo.reshape %1 : (tensor<48xui8>) -> tensor<2x8x1x3xui8>
    %3 = stablehlo.slice %2 [0:2, 0:8, 0:1, 1:3] : (tensor<2x8x1x3xui8>) -> tensor<2x8x1x2xui8>
    %4 = stablehlo.reshape %arg0 : (tensor<1x5x6xui8>) -> tensor<30xui8>
    %c_0 = stablehlo.constant dense<0> : tensor<ui8>
    %5 = stablehlo.pad %4, %c_0, low = [0], high = [18], interior = [0] : (tensor<30xui8>, tensor<ui8>) -> tensor<48xui8>
    %6 = stablehlo.reshape %5 : (tensor<48xui8>) -> tensor<2x1x8x3xui8>
    %7 = stablehlo.convolution(%3, %6) dim_numbers = [0, f, b, 1]x[1, o, i, 0]->[b, f, 1, 0], window = {stride = [2, 1], pad = [[1, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x1x2xui8>, tensor<2x1x8x3xui8>) -> tensor<1x1x1x1xui8>
    return %7 : tensor<1x1x1x1xui8>
  }
}
