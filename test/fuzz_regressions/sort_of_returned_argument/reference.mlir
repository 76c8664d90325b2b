module {
  func.func @main(%arg0: tensor<4096xf32>, %arg1: tensor<9x9xf32>) -> (tensor<9x9xf32>, tensor<4096xf32>, tensor<9x9xf32>) {
    %0 = "stablehlo.sort"(%arg1) <{dimension = 1 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<9x9xf32>) -> tensor<9x9xf32>
    return %arg1, %arg0, %0 : tensor<9x9xf32>, tensor<4096xf32>, tensor<9x9xf32>
  }
}
