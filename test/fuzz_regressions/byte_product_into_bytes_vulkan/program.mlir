module {
  func.func @main(%arg0: tensor<1x1x8x16xui8>) -> tensor<1x1x16x3x8xui8> {
    %0 = stablehlo.reshape %arg0 : (tensor<1x1x8x16xui8>) -> tensor<128xui8>
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %1 = stablehlo.pad %0, %c, low = [0], high = [64], interior = [0] : (tensor<128xui8>, tensor<ui8>) -> tensor<192xui8>
    %2 = stablehlo.reshape %1 : (tensor<192xui8>) -> tensor<8x3x8xui8>
    %3 = stablehlo.dot_general %arg0, %2, contracting_dims = [2] x [0] : (tensor<1x1x8x16xui8>, tensor<8x3x8xui8>) -> tensor<1x1x16x3x8xui8>
    return %3 : tensor<1x1x16x3x8xui8>
  }
}
