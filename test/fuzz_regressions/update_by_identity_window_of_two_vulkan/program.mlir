module {
  func.func @main(%arg0: tensor<2xi32>) -> tensor<2xi32> {
    %c = stablehlo.constant dense<-2147483648> : tensor<i32>
    %0 = "stablehlo.reduce_window"(%arg0, %c) <{base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 1>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %6 = stablehlo.maximum %arg1, %arg2 : tensor<i32>
      stablehlo.return %6 : tensor<i32>
    }) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
    %1 = stablehlo.slice %0 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %2 = stablehlo.slice %0 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %4 = stablehlo.remainder %3, %c_0 : tensor<i32>
    %5 = stablehlo.dynamic_update_slice %arg0, %1, %4 : (tensor<2xi32>, tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
    return %5 : tensor<2xi32>
  }
}
