module {
  func.func @main(%arg0: tensor<4x6xi64>, %arg1: tensor<0x1x2xi64>) -> (tensor<4x6xi64>, tensor<4x6xi64>) {
    %0 = stablehlo.reshape %arg1 : (tensor<0x1x2xi64>) -> tensor<0xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.pad %0, %c, low = [0], high = [20], interior = [0] : (tensor<0xi64>, tensor<i64>) -> tensor<20xi64>
    %2 = stablehlo.reshape %1 : (tensor<20xi64>) -> tensor<4x5xi64>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %c_1 = stablehlo.constant dense<6> : tensor<i32>
    %3 = stablehlo.dynamic_update_slice %arg0, %2, %c_0, %c_1 : (tensor<4x6xi64>, tensor<4x5xi64>, tensor<i32>, tensor<i32>) -> tensor<4x6xi64>
    return %arg0, %3 : tensor<4x6xi64>, tensor<4x6xi64>
  }
}
