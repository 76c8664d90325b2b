module {
  func.func @main(%arg0: tensor<1x3x1x2xi1>) -> tensor<2x5xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<1x3x1x2xi32>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %c), (%0 init: %c_0) across dimensions = [0] : (tensor<1x3x1x2xi1>, tensor<1x3x1x2xi32>, tensor<i1>, tensor<i32>) -> (tensor<3x1x2xi1>, tensor<3x1x2xi32>)
     reducer(%arg1: tensor<i1>, %arg3: tensor<i1>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %7 = stablehlo.compare GT, %arg1, %arg3, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %8 = stablehlo.compare EQ, %arg1, %arg3, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %9 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %10 = stablehlo.and %8, %9 : tensor<i1>
      %11 = stablehlo.or %7, %10 : tensor<i1>
      %12 = stablehlo.select %11, %arg1, %arg3 : tensor<i1>, tensor<i1>
      %13 = stablehlo.select %11, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %12, %13 : tensor<i1>, tensor<i32>
    }
    %2 = stablehlo.convert %arg0 : (tensor<1x3x1x2xi1>) -> tensor<1x3x1x2xi32>
    %3 = stablehlo.reshape %2 : (tensor<1x3x1x2xi32>) -> tensor<6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.pad %3, %c_1, low = [0], high = [9], interior = [0] : (tensor<6xi32>, tensor<i32>) -> tensor<15xi32>
    %5 = stablehlo.reshape %4 : (tensor<15xi32>) -> tensor<3x1x5xi32>
    %6 = stablehlo.dot_general %1#1, %5, contracting_dims = [0, 1] x [0, 1] : (tensor<3x1x2xi32>, tensor<3x1x5xi32>) -> tensor<2x5xi32>
    return %6 : tensor<2x5xi32>
  }
}
