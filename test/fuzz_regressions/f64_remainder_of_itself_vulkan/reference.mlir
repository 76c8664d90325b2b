module {
  func.func @main(%arg0: tensor<2xf64>) -> tensor<2xf64> {
    %0 = stablehlo.remainder %arg0, %arg0 : tensor<2xf64>
    return %0 : tensor<2xf64>
  }
}
