module {
  func.func @main(%arg0: tensor<1x5xf32>, %arg1: tensor<1x0x0xf32>) -> (tensor<1x5xf32>, tensor<4x1x1xf32>) {
    %0 = stablehlo.compare GE, %arg0, %arg0, FLOAT : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xi1>
    %1 = stablehlo.select %0, %arg0, %arg0 : tensor<1x5xi1>, tensor<1x5xf32>
    %2 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %7 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    }) : (tensor<1x5xf32>) -> tensor<1x5xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x5xf32>) -> tensor<5xf32>
    %4 = stablehlo.slice %3 [0:1] : (tensor<5xf32>) -> tensor<1xf32>
    %5 = stablehlo.reshape %4 : (tensor<1xf32>) -> tensor<f32>
    %6 = stablehlo.pad %arg1, %5, low = [1, 1, 0], high = [2, 0, 1], interior = [0, 0, 0] : (tensor<1x0x0xf32>, tensor<f32>) -> tensor<4x1x1xf32>
    return %1, %6 : tensor<1x5xf32>, tensor<4x1x1xf32>
  }
}
