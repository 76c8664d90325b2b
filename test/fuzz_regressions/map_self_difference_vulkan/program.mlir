module {
  func.func @main(%arg0: tensor<3x25xcomplex<f32>>) -> tensor<3x25xf32> {
    %0 = stablehlo.real %arg0 : (tensor<3x25xcomplex<f32>>) -> tensor<3x25xf32>
    %1 = stablehlo.real %arg0 : (tensor<3x25xcomplex<f32>>) -> tensor<3x25xf32>
    %2 = "stablehlo.map"(%0, %1) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = stablehlo.subtract %arg1, %arg2 : tensor<f32>
      %4 = stablehlo.negate %3 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<3x25xf32>, tensor<3x25xf32>) -> tensor<3x25xf32>
    return %2 : tensor<3x25xf32>
  }
}
