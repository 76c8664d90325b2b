module {
  func.func @main(%arg0: tensor<1xui32>) -> tensor<1xui32> {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.multiply across dimensions = [] : (tensor<1xui32>, tensor<ui32>) -> tensor<1xui32>
    return %0 : tensor<1xui32>
  }
}
