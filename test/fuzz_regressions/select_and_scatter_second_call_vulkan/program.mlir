module {
  func.func @main(%arg0: tensor<7x5x100x3xf32>, %arg1: tensor<4xcomplex<f32>>, %arg2: tensor<7x5x100x3xf32>) -> (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>, tensor<4xcomplex<f32>>) {
    %0 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x5x100x3xf32>
    %2 = stablehlo.select %0, %1, %arg2 : tensor<7x5x100x3xi1>, tensor<7x5x100x3xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<7x5x100x3xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %4 = stablehlo.convert %3 : (tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi32>
    %c = stablehlo.constant dense<-798> : tensor<i32>
    %c_2 = stablehlo.constant dense<798> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<7x5x100x3xi32>, tensor<i32>) -> tensor<7x5x100x3xi32>
    %6 = stablehlo.iota dim = 0 : tensor<10500xi32>
    %7 = stablehlo.reshape %6 : (tensor<10500xi32>) -> tensor<7x5x100x3xi32>
    %c_3 = stablehlo.constant dense<10500> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<7x5x100x3xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<7x5x100x3xi32>
    %10 = stablehlo.add %9, %7 : tensor<7x5x100x3xi32>
    %11 = stablehlo.convert %10 : (tensor<7x5x100x3xi32>) -> tensor<7x5x100x3xf32>
    %12 = stablehlo.real %arg1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.pad %12, %cst_4, low = [0], high = [596], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<600xf32>
    %14 = stablehlo.reshape %13 : (tensor<600xf32>) -> tensor<3x4x50x1xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = "stablehlo.select_and_scatter"(%11, %14, %cst_5) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 2, 2, 2, 2>, window_strides = array<i64: 2, 1, 2, 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %32 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %32 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %32 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %32 : tensor<f32>
    }) : (tensor<7x5x100x3xf32>, tensor<3x4x50x1xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %16 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<7x5x100x3xf32>
    %18 = stablehlo.select %16, %17, %arg0 : tensor<7x5x100x3xi1>, tensor<7x5x100x3xf32>
    %cst_7 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_8 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %19 = stablehlo.clamp %cst_7, %18, %cst_8 : (tensor<f32>, tensor<7x5x100x3xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %20 = stablehlo.convert %19 : (tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi32>
    %c_9 = stablehlo.constant dense<-798> : tensor<i32>
    %c_10 = stablehlo.constant dense<798> : tensor<i32>
    %21 = stablehlo.clamp %c_9, %20, %c_10 : (tensor<i32>, tensor<7x5x100x3xi32>, tensor<i32>) -> tensor<7x5x100x3xi32>
    %22 = stablehlo.iota dim = 0 : tensor<10500xi32>
    %23 = stablehlo.reshape %22 : (tensor<10500xi32>) -> tensor<7x5x100x3xi32>
    %c_11 = stablehlo.constant dense<10500> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<7x5x100x3xi32>
    %25 = stablehlo.multiply %21, %24 : tensor<7x5x100x3xi32>
    %26 = stablehlo.add %25, %23 : tensor<7x5x100x3xi32>
    %27 = stablehlo.convert %26 : (tensor<7x5x100x3xi32>) -> tensor<7x5x100x3xf32>
    %28 = stablehlo.real %arg1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.pad %28, %cst_12, low = [0], high = [696], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<700xf32>
    %30 = stablehlo.reshape %29 : (tensor<700xf32>) -> tensor<7x2x50x1xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = "stablehlo.select_and_scatter"(%27, %30, %cst_13) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 2>, window_strides = array<i64: 1, 2, 2, 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %32 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %32 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %32 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %32 : tensor<f32>
    }) : (tensor<7x5x100x3xf32>, tensor<7x2x50x1xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    return %15, %31, %arg1 : tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>, tensor<4xcomplex<f32>>
  }
}
