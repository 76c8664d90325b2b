module {
  func.func @main(%arg0: tensor<i8>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<-128> : tensor<i8>
    %c_1 = stablehlo.constant dense<2147483647> : tensor<i32>
    %0:2 = stablehlo.reduce(%arg0 init: %c_0), (%c init: %c_1) across dimensions = [] : (tensor<i8>, tensor<i32>, tensor<i8>, tensor<i32>) -> (tensor<i8>, tensor<i32>)
     reducer(%arg1: tensor<i8>, %arg3: tensor<i8>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %1 = stablehlo.compare GT, %arg1, %arg3, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
      %2 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
      %3 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.and %2, %3 : tensor<i1>
      %5 = stablehlo.or %1, %4 : tensor<i1>
      %6 = stablehlo.select %5, %arg1, %arg3 : tensor<i1>, tensor<i8>
      %7 = stablehlo.select %5, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %6, %7 : tensor<i8>, tensor<i32>
    }
    return %0#1 : tensor<i32>
  }
}
