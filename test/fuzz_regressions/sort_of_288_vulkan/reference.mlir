module {
  func.func @main(%arg0: tensor<288xf32>) -> tensor<288xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<288xf32>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<288xf32>, tensor<288xf32>) -> tensor<288xi1>
    %2 = stablehlo.select %1, %0, %arg0 : tensor<288xi1>, tensor<288xf32>
    %3 = "stablehlo.sort"(%2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %4 = stablehlo.bitcast_convert %arg1 : (tensor<f32>) -> tensor<i32>
      %c = stablehlo.constant dense<31> : tensor<i32>
      %5 = stablehlo.shift_right_arithmetic %4, %c : tensor<i32>
      %c_0 = stablehlo.constant dense<2147483647> : tensor<i32>
      %6 = stablehlo.and %5, %c_0 : tensor<i32>
      %7 = stablehlo.xor %4, %6 : tensor<i32>
      %8 = stablehlo.bitcast_convert %arg2 : (tensor<f32>) -> tensor<i32>
      %c_1 = stablehlo.constant dense<31> : tensor<i32>
      %9 = stablehlo.shift_right_arithmetic %8, %c_1 : tensor<i32>
      %c_2 = stablehlo.constant dense<2147483647> : tensor<i32>
      %10 = stablehlo.and %9, %c_2 : tensor<i32>
      %11 = stablehlo.xor %8, %10 : tensor<i32>
      %12 = stablehlo.compare GT, %7, %11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }) : (tensor<288xf32>) -> tensor<288xf32>
    return %3 : tensor<288xf32>
  }
}
