module {
  func.func @main(%arg0: tensor<3xui8>, %arg1: tensor<3xui8>) -> tensor<3xui8> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<3xui8>
    cond {
      %4 = stablehlo.compare LT, %iterArg, %iterArg_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %c_4 = stablehlo.constant dense<1> : tensor<ui8>
      %5 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui8>) -> tensor<3xui8>
      %6 = stablehlo.subtract %iterArg_2, %5 : tensor<3xui8>
      stablehlo.return %4, %iterArg_1, %6 : tensor<i32>, tensor<i32>, tensor<3xui8>
    }
    %1 = "stablehlo.sort"(%0#2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<ui8>, %arg3: tensor<ui8>):
      %4 = stablehlo.compare GT, %arg2, %arg3, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<3xui8>) -> tensor<3xui8>
    %2 = stablehlo.compare LE, %arg1, %1, UNSIGNED : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
    %3 = stablehlo.select %2, %1, %arg0 : tensor<3xi1>, tensor<3xui8>
    return %3 : tensor<3xui8>
  }
}
