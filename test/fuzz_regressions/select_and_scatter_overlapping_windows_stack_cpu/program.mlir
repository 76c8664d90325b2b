module {
  func.func @main(%arg0: tensor<16384xf16>) -> tensor<16384xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<16384xf16>, tensor<16384xf16>) -> tensor<16384xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<16384xf16>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<16384xi1>, tensor<16384xf16>
    %cst_0 = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
    %cst_1 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f16>, tensor<16384xf16>, tensor<f16>) -> tensor<16384xf16>
    %4 = stablehlo.convert %3 : (tensor<16384xf16>) -> tensor<16384xi32>
    %c = stablehlo.constant dense<-512> : tensor<i32>
    %c_2 = stablehlo.constant dense<512> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<16384xi32>, tensor<i32>) -> tensor<16384xi32>
    %6 = stablehlo.iota dim = 0 : tensor<16384xi32>
    %7 = stablehlo.reshape %6 : (tensor<16384xi32>) -> tensor<16384xi32>
    %c_3 = stablehlo.constant dense<16384> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<16384xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<16384xi32>
    %10 = stablehlo.add %9, %7 : tensor<16384xi32>
    %11 = stablehlo.convert %10 : (tensor<16384xi32>) -> tensor<16384xf32>
    %12 = stablehlo.convert %arg0 : (tensor<16384xf16>) -> tensor<16384xf32>
    %13 = stablehlo.slice %12 [0:16383] : (tensor<16384xf32>) -> tensor<16383xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = "stablehlo.select_and_scatter"(%11, %13, %cst_4) <{padding = dense<0> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %15 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %15 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<16384xf32>, tensor<16383xf32>, tensor<f32>) -> tensor<16384xf32>
    return %14 : tensor<16384xf32>
  }
}
