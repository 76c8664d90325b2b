module {
  func.func @main(%arg0: tensor<32x8xf32>) -> tensor<2x8x16xf32> {
    %0 = stablehlo.reshape %arg0 : (tensor<32x8xf32>) -> tensor<2x8x16xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<32x8xf32>) -> tensor<256xf32>
    %2 = stablehlo.reshape %1 : (tensor<256xf32>) -> tensor<2x8x16xf32>
    %3 = stablehlo.subtract %0, %2 : tensor<2x8x16xf32>
    return %3 : tensor<2x8x16xf32>
  }
}
