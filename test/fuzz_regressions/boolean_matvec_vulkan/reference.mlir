module {
  func.func @main(%arg0: tensor<8x512xi1>) -> tensor<512xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<8x512xi1>) -> tensor<8x512xi32>
    %1 = stablehlo.convert %arg0 : (tensor<8x512xi1>) -> tensor<8x512xi32>
    %2 = stablehlo.reshape %1 : (tensor<8x512xi32>) -> tensor<4096xi32>
    %3 = stablehlo.slice %2 [0:8] : (tensor<4096xi32>) -> tensor<8xi32>
    %4 = stablehlo.dot_general %0, %3, contracting_dims = [0] x [0] : (tensor<8x512xi32>, tensor<8xi32>) -> tensor<512xi32>
    return %4 : tensor<512xi32>
  }
}
