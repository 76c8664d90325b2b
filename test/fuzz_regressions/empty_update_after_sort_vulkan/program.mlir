module {
  func.func @main(%arg0: tensor<2x1xf32>) -> tensor<2x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xi1>
    %2 = stablehlo.select %1, %0, %arg0 : tensor<2x1xi1>, tensor<2x1xf32>
    %3 = "stablehlo.sort"(%2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %27 = stablehlo.compare LT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    }) : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<2x1xf32>) -> tensor<2xf32>
    %5 = stablehlo.slice %4 [0:0] : (tensor<2xf32>) -> tensor<0xf32>
    %6 = stablehlo.reshape %5 : (tensor<0xf32>) -> tensor<2x0xf32>
    %7 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %9 = stablehlo.select %7, %8, %arg0 : tensor<2x1xi1>, tensor<2x1xf32>
    %cst_1 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_2 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %10 = stablehlo.clamp %cst_1, %9, %cst_2 : (tensor<f32>, tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
    %11 = stablehlo.convert %10 : (tensor<2x1xf32>) -> tensor<2x1xi32>
    %12 = stablehlo.reshape %11 : (tensor<2x1xi32>) -> tensor<2xi32>
    %13 = stablehlo.slice %12 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %14 = stablehlo.reshape %13 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<4> : tensor<i32>
    %15 = stablehlo.remainder %14, %c : tensor<i32>
    %16 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
    %18 = stablehlo.select %16, %17, %arg0 : tensor<2x1xi1>, tensor<2x1xf32>
    %cst_4 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_5 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %19 = stablehlo.clamp %cst_4, %18, %cst_5 : (tensor<f32>, tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
    %20 = stablehlo.convert %19 : (tensor<2x1xf32>) -> tensor<2x1xi32>
    %21 = stablehlo.reshape %20 : (tensor<2x1xi32>) -> tensor<2xi32>
    %22 = stablehlo.slice %21 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %23 = stablehlo.reshape %22 : (tensor<1xi32>) -> tensor<i32>
    %c_6 = stablehlo.constant dense<3> : tensor<i32>
    %24 = stablehlo.remainder %23, %c_6 : tensor<i32>
    %25 = stablehlo.dynamic_update_slice %3, %6, %15, %24 : (tensor<2x1xf32>, tensor<2x0xf32>, tensor<i32>, tensor<i32>) -> tensor<2x1xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %26 = "stablehlo.reduce_window"(%25, %cst_7) <{base_dilations = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %27 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
    return %26 : tensor<2x1xf32>
  }
}
