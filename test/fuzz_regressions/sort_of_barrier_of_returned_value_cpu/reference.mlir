module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<3xi32>, tensor<3xi32>) {
    %0 = stablehlo.compare EQ, %arg0, %arg0, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.compare NE, %arg0, %1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %3 = stablehlo.and %0, %2 : tensor<3xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.select %3, %arg0, %4 : tensor<3xi1>, tensor<3xf32>
    %6 = stablehlo.bitcast_convert %5 : (tensor<3xf32>) -> tensor<3xi32>
    %7 = stablehlo.optimization_barrier %6 : tensor<3xi32>
    %8 = "stablehlo.sort"(%7) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %9 = stablehlo.compare LT, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<3xi32>) -> tensor<3xi32>
    return %arg1, %8, %6 : tensor<f32>, tensor<3xi32>, tensor<3xi32>
  }
}
