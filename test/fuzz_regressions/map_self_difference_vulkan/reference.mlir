module {
  func.func @main(%arg0: tensor<3x25xf32>, %arg1: tensor<3x25xf32>) -> tensor<3x25xf32> {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<3x25xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<3x25xcomplex<f32>>) -> tensor<3x25xf32>
    %2 = stablehlo.real %0 : (tensor<3x25xcomplex<f32>>) -> tensor<3x25xf32>
    %3 = "stablehlo.map"(%1, %2) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %4 = stablehlo.subtract %arg2, %arg3 : tensor<f32>
      %5 = stablehlo.negate %4 : tensor<f32>
      stablehlo.return %5 : tensor<f32>
    }) : (tensor<3x25xf32>, tensor<3x25xf32>) -> tensor<3x25xf32>
    return %3 : tensor<3x25xf32>
  }
}
