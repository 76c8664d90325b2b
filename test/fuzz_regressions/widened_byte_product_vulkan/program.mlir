module {
  func.func @main(%arg0: tensor<4x16xi8>, %arg1: tensor<4x1x16xui16>) -> tensor<1xui16> {
    %0 = stablehlo.convert %arg0 : (tensor<4x16xi8>) -> tensor<4x16xui16>
    %1 = stablehlo.reshape %0 : (tensor<4x16xui16>) -> tensor<64xui16>
    %2 = stablehlo.reshape %1 : (tensor<64xui16>) -> tensor<16x4xui16>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [2, 0] x [0, 1] : (tensor<4x1x16xui16>, tensor<16x4xui16>) -> tensor<1xui16>
    return %3 : tensor<1xui16>
  }
}
