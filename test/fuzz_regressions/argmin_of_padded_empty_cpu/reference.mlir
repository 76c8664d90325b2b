module {
  func.func @main(%arg0: tensor<2x0xf16>) -> tensor<3xf16> {
    %0 = stablehlo.reshape %arg0 : (tensor<2x0xf16>) -> tensor<0xf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [1], interior = [0] : (tensor<0xf16>, tensor<f16>) -> tensor<1xf16>
    %2 = stablehlo.reshape %1 : (tensor<1xf16>) -> tensor<f16>
    %3 = stablehlo.pad %arg0, %2, low = [0, 2], high = [1, 0], interior = [0, 0] : (tensor<2x0xf16>, tensor<f16>) -> tensor<3x2xf16>
    %4 = stablehlo.iota dim = 1 : tensor<3x2xi32>
    %cst_0 = stablehlo.constant dense<0x7E00> : tensor<f16>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %5:2 = stablehlo.reduce(%3 init: %cst_0), (%4 init: %c) across dimensions = [1] : (tensor<3x2xf16>, tensor<3x2xi32>, tensor<f16>, tensor<i32>) -> (tensor<3xf16>, tensor<3xi32>)
     reducer(%arg1: tensor<f16>, %arg3: tensor<f16>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %6 = stablehlo.compare LT, %arg1, %arg3, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>
      %7 = stablehlo.compare EQ, %arg1, %arg3, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>
      %8 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %10, %arg1, %arg3 : tensor<i1>, tensor<f16>
      %12 = stablehlo.select %10, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f16>, tensor<i32>
    }
    return %5#0 : tensor<3xf16>
  }
}
