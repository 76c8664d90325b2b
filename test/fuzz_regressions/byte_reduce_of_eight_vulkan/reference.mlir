module {
  func.func @main(%arg0: tensor<100x3x8xui8>) -> tensor<100x3xui8> {
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [2] : (tensor<100x3x8xui8>, tensor<ui8>) -> tensor<100x3xui8>
    return %0 : tensor<100x3xui8>
  }
}
