module {
  func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi1> {
    %0 = stablehlo.clamp %arg0, %arg0, %arg0 : tensor<4xi1>
    %1 = stablehlo.slice %0 [0:2] : (tensor<4xi1>) -> tensor<2xi1>
    %2 = stablehlo.convert %0 : (tensor<4xi1>) -> tensor<4xi32>
    %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %4 = stablehlo.reshape %3 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<6> : tensor<i32>
    %5 = stablehlo.remainder %4, %c : tensor<i32>
    %6 = stablehlo.dynamic_update_slice %arg0, %1, %5 : (tensor<4xi1>, tensor<2xi1>, tensor<i32>) -> tensor<4xi1>
    return %6 : tensor<4xi1>
  }
}
