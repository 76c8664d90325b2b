module {
  func.func @main(%arg0: tensor<1x1x1xui16>) -> tensor<1x1x5x5xui32> {
    %0 = stablehlo.reshape %arg0 : (tensor<1x1x1xui16>) -> tensor<1xui16>
    %c = stablehlo.constant dense<0> : tensor<ui16>
    %1 = stablehlo.pad %0, %c, low = [0], high = [24], interior = [0] : (tensor<1xui16>, tensor<ui16>) -> tensor<25xui16>
    %2 = stablehlo.reshape %1 : (tensor<25xui16>) -> tensor<1x1x5x5xui16>
    %3 = stablehlo.dot_general %arg0, %2, batching_dims = [2] x [0], contracting_dims = [0] x [1] : (tensor<1x1x1xui16>, tensor<1x1x5x5xui16>) -> tensor<1x1x5x5xui16>
    %4 = stablehlo.convert %3 : (tensor<1x1x5x5xui16>) -> tensor<1x1x5x5xui32>
    return %4 : tensor<1x1x5x5xui32>
  }
}
