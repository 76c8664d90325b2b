module {
  func.func @main(%arg0: tensor<2xf64>) -> tensor<2xf64> {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_2 = %c, %iterArg_3 = %arg0) : tensor<i32>, tensor<i32>, tensor<2xf64>
    cond {
      %3 = stablehlo.compare LT, %iterArg, %iterArg_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      %4 = stablehlo.sine %iterArg_3 : tensor<2xf64>
      stablehlo.return %3, %iterArg_2, %4 : tensor<i32>, tensor<i32>, tensor<2xf64>
    }
    %1 = stablehlo.slice %0#2 [0:1] : (tensor<2xf64>) -> tensor<1xf64>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.dynamic_update_slice %0#2, %1, %c_1 : (tensor<2xf64>, tensor<1xf64>, tensor<i32>) -> tensor<2xf64>
    return %2 : tensor<2xf64>
  }
}
