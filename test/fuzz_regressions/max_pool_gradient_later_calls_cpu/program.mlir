module {
  func.func @main(%arg0: tensor<16x16384xf32>) -> tensor<16x16384xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<16x16384xf32>, tensor<16x16384xf32>) -> tensor<16x16384xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16384xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<16x16384xi1>, tensor<16x16384xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<16x16384xf32>, tensor<f32>) -> tensor<16x16384xf32>
    %4 = stablehlo.convert %3 : (tensor<16x16384xf32>) -> tensor<16x16384xi32>
    %c = stablehlo.constant dense<-32> : tensor<i32>
    %c_2 = stablehlo.constant dense<32> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<16x16384xi32>, tensor<i32>) -> tensor<16x16384xi32>
    %6 = stablehlo.iota dim = 0 : tensor<262144xi32>
    %7 = stablehlo.reshape %6 : (tensor<262144xi32>) -> tensor<16x16384xi32>
    %c_3 = stablehlo.constant dense<262144> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<16x16384xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<16x16384xi32>
    %10 = stablehlo.add %9, %7 : tensor<16x16384xi32>
    %11 = stablehlo.convert %10 : (tensor<16x16384xi32>) -> tensor<16x16384xf32>
    %12 = stablehlo.reshape %arg0 : (tensor<16x16384xf32>) -> tensor<262144xf32>
    %13 = stablehlo.slice %12 [0:131072] : (tensor<262144xf32>) -> tensor<131072xf32>
    %14 = stablehlo.reshape %13 : (tensor<131072xf32>) -> tensor<8x16384xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = "stablehlo.select_and_scatter"(%11, %14, %cst_4) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %32 = stablehlo.compare LE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %32 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %32 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %32 : tensor<f32>
    }) : (tensor<16x16384xf32>, tensor<8x16384xf32>, tensor<f32>) -> tensor<16x16384xf32>
    %16 = stablehlo.compare NE, %15, %15, FLOAT : (tensor<16x16384xf32>, tensor<16x16384xf32>) -> tensor<16x16384xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x16384xf32>
    %18 = stablehlo.select %16, %17, %15 : tensor<16x16384xi1>, tensor<16x16384xf32>
    %cst_6 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_7 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %19 = stablehlo.clamp %cst_6, %18, %cst_7 : (tensor<f32>, tensor<16x16384xf32>, tensor<f32>) -> tensor<16x16384xf32>
    %20 = stablehlo.convert %19 : (tensor<16x16384xf32>) -> tensor<16x16384xi32>
    %c_8 = stablehlo.constant dense<-32> : tensor<i32>
    %c_9 = stablehlo.constant dense<32> : tensor<i32>
    %21 = stablehlo.clamp %c_8, %20, %c_9 : (tensor<i32>, tensor<16x16384xi32>, tensor<i32>) -> tensor<16x16384xi32>
    %22 = stablehlo.iota dim = 0 : tensor<262144xi32>
    %23 = stablehlo.reshape %22 : (tensor<262144xi32>) -> tensor<16x16384xi32>
    %c_10 = stablehlo.constant dense<262144> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<16x16384xi32>
    %25 = stablehlo.multiply %21, %24 : tensor<16x16384xi32>
    %26 = stablehlo.add %25, %23 : tensor<16x16384xi32>
    %27 = stablehlo.convert %26 : (tensor<16x16384xi32>) -> tensor<16x16384xf32>
    %28 = stablehlo.reshape %arg0 : (tensor<16x16384xf32>) -> tensor<262144xf32>
    %29 = stablehlo.slice %28 [0:131072] : (tensor<262144xf32>) -> tensor<131072xf32>
    %30 = stablehlo.reshape %29 : (tensor<131072xf32>) -> tensor<8x16384xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = "stablehlo.select_and_scatter"(%27, %30, %cst_11) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %32 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %32 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %32 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %32 : tensor<f32>
    }) : (tensor<16x16384xf32>, tensor<8x16384xf32>, tensor<f32>) -> tensor<16x16384xf32>
    return %31 : tensor<16x16384xf32>
  }
}
