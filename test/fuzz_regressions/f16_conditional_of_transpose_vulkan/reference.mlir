module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<3x6xi8>) -> (tensor<6x3xf16>, tensor<f32>, tensor<6x3xf16>) {
    %0 = stablehlo.convert %arg1 : (tensor<3x6xi8>) -> tensor<3x6xf16>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x6xf16>) -> tensor<6x3xf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = "stablehlo.case"(%c) ({
      %3 = stablehlo.negate %1 : tensor<6x3xf16>
      stablehlo.return %3 : tensor<6x3xf16>
    }, {
      %3 = stablehlo.negate %1 : tensor<6x3xf16>
      stablehlo.return %3 : tensor<6x3xf16>
    }, {
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
      %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<6x3xf16>
      %4 = stablehlo.subtract %1, %3 : tensor<6x3xf16>
      stablehlo.return %4 : tensor<6x3xf16>
    }) : (tensor<i32>) -> tensor<6x3xf16>
    return %2, %arg0, %1 : tensor<6x3xf16>, tensor<f32>, tensor<6x3xf16>
  }
}
