module {
  func.func @main(%arg0: tensor<3x4x1x4xi16>) -> tensor<5x1xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<3x4x1x4xi32>
    %c = stablehlo.constant dense<32767> : tensor<i16>
    %c_0 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %c), (%0 init: %c_0) across dimensions = [0, 1, 2, 3] : (tensor<3x4x1x4xi16>, tensor<3x4x1x4xi32>, tensor<i16>, tensor<i32>) -> (tensor<i16>, tensor<i32>)
     reducer(%arg1: tensor<i16>, %arg3: tensor<i16>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %15 = stablehlo.compare LT, %arg1, %arg3, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
      %16 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
      %17 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %18 = stablehlo.and %16, %17 : tensor<i1>
      %19 = stablehlo.or %15, %18 : tensor<i1>
      %20 = stablehlo.select %19, %arg1, %arg3 : tensor<i1>, tensor<i16>
      %21 = stablehlo.select %19, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %20, %21 : tensor<i16>, tensor<i32>
    }
    %2 = stablehlo.convert %arg0 : (tensor<3x4x1x4xi16>) -> tensor<3x4x1x4xi32>
    %3 = stablehlo.reshape %2 : (tensor<3x4x1x4xi32>) -> tensor<48xi32>
    %4 = stablehlo.slice %3 [0:1] : (tensor<48xi32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %4 : (tensor<1xi32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare EQ, %5, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<-1> : tensor<i32>
    %7 = stablehlo.compare EQ, %5, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %8 = stablehlo.or %6, %7 : tensor<i1>
    %c_3 = stablehlo.constant dense<7> : tensor<i32>
    %9 = stablehlo.select %8, %c_3, %5 : tensor<i1>, tensor<i32>
    %10 = stablehlo.remainder %1#1, %9 : tensor<i32>
    %11 = stablehlo.reshape %1#1 : (tensor<i32>) -> tensor<1xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.pad %11, %c_4, low = [0], high = [4], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<5xi32>
    %13 = stablehlo.reshape %12 : (tensor<5xi32>) -> tensor<5x1xi32>
    %14 = stablehlo.dot_general %10, %13, contracting_dims = [] x [] : (tensor<i32>, tensor<5x1xi32>) -> tensor<5x1xi32>
    return %14 : tensor<5x1xi32>
  }
}
