module {
  func.func @main(%arg0: tensor<288xf32>) -> tensor<288xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<288xf32>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<288xf32>, tensor<288xf32>) -> tensor<288xi1>
    %2 = stablehlo.select %1, %0, %arg0 : tensor<288xi1>, tensor<288xf32>
    %3 = "stablehlo.sort"(%2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<288xf32>) -> tensor<288xf32>
    return %3 : tensor<288xf32>
  }
}
