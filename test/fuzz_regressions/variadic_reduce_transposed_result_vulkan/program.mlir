module {
  func.func @main(%arg0: tensor<1x2x2x4xf32>) -> tensor<2x2xi32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x2x2x4xf32>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xi1>
    %2 = stablehlo.select %1, %0, %arg0 : tensor<1x2x2x4xi1>, tensor<1x2x2x4xf32>
    %3 = stablehlo.iota dim = 0 : tensor<1x2x2x4xi32>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.negate %cst_0 : tensor<f32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %5:2 = stablehlo.reduce(%2 init: %4), (%3 init: %c) across dimensions = [0, 3] : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %7 = stablehlo.compare GT, %arg1, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare EQ, %arg1, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %10 = stablehlo.and %8, %9 : tensor<i1>
      %11 = stablehlo.or %7, %10 : tensor<i1>
      %12 = stablehlo.select %11, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %13 = stablehlo.select %11, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %12, %13 : tensor<f32>, tensor<i32>
    }
    %6 = stablehlo.transpose %5#1, dims = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
    return %6 : tensor<2x2xi32>
  }
}
