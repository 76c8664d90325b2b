module {
  func.func @main(%arg0: tensor<7x5x100x3xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<7x5x100x3xf32>) -> (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>, tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.complex %arg1, %arg2 : tensor<4xcomplex<f32>>
    %1 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7x5x100x3xf32>
    %3 = stablehlo.select %1, %2, %arg3 : tensor<7x5x100x3xi1>, tensor<7x5x100x3xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<f32>, tensor<7x5x100x3xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %5 = stablehlo.convert %4 : (tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi32>
    %c = stablehlo.constant dense<-798> : tensor<i32>
    %c_2 = stablehlo.constant dense<798> : tensor<i32>
    %6 = stablehlo.clamp %c, %5, %c_2 : (tensor<i32>, tensor<7x5x100x3xi32>, tensor<i32>) -> tensor<7x5x100x3xi32>
    %7 = stablehlo.iota dim = 0 : tensor<10500xi32>
    %8 = stablehlo.reshape %7 : (tensor<10500xi32>) -> tensor<7x5x100x3xi32>
    %c_3 = stablehlo.constant dense<10500> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<7x5x100x3xi32>
    %10 = stablehlo.multiply %6, %9 : tensor<7x5x100x3xi32>
    %11 = stablehlo.add %10, %8 : tensor<7x5x100x3xi32>
    %12 = stablehlo.convert %11 : (tensor<7x5x100x3xi32>) -> tensor<7x5x100x3xf32>
    %13 = stablehlo.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.pad %13, %cst_4, low = [0], high = [596], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<600xf32>
    %15 = stablehlo.reshape %14 : (tensor<600xf32>) -> tensor<3x4x50x1xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = "stablehlo.select_and_scatter"(%12, %15, %cst_5) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 2, 2, 2, 2>, window_strides = array<i64: 2, 1, 2, 2>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %35 = stablehlo.compare GE, %arg4, %arg5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    }, {
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %35 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %35 : tensor<f32>
    }) : (tensor<7x5x100x3xf32>, tensor<3x4x50x1xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %17 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<7x5x100x3xf32>
    %19 = stablehlo.select %17, %18, %arg0 : tensor<7x5x100x3xi1>, tensor<7x5x100x3xf32>
    %cst_7 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_8 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %20 = stablehlo.clamp %cst_7, %19, %cst_8 : (tensor<f32>, tensor<7x5x100x3xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %21 = stablehlo.convert %20 : (tensor<7x5x100x3xf32>) -> tensor<7x5x100x3xi32>
    %c_9 = stablehlo.constant dense<-798> : tensor<i32>
    %c_10 = stablehlo.constant dense<798> : tensor<i32>
    %22 = stablehlo.clamp %c_9, %21, %c_10 : (tensor<i32>, tensor<7x5x100x3xi32>, tensor<i32>) -> tensor<7x5x100x3xi32>
    %23 = stablehlo.iota dim = 0 : tensor<10500xi32>
    %24 = stablehlo.reshape %23 : (tensor<10500xi32>) -> tensor<7x5x100x3xi32>
    %c_11 = stablehlo.constant dense<10500> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<7x5x100x3xi32>
    %26 = stablehlo.multiply %22, %25 : tensor<7x5x100x3xi32>
    %27 = stablehlo.add %26, %24 : tensor<7x5x100x3xi32>
    %28 = stablehlo.convert %27 : (tensor<7x5x100x3xi32>) -> tensor<7x5x100x3xf32>
    %29 = stablehlo.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.pad %29, %cst_12, low = [0], high = [696], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<700xf32>
    %31 = stablehlo.reshape %30 : (tensor<700xf32>) -> tensor<7x2x50x1xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = "stablehlo.select_and_scatter"(%28, %31, %cst_13) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 2>, window_strides = array<i64: 1, 2, 2, 2>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %35 = stablehlo.compare GE, %arg4, %arg5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    }, {
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %35 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %35 : tensor<f32>
    }) : (tensor<7x5x100x3xf32>, tensor<7x2x50x1xf32>, tensor<f32>) -> tensor<7x5x100x3xf32>
    %33 = stablehlo.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %34 = stablehlo.imag %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    return %16, %32, %33, %34 : tensor<7x5x100x3xf32>, tensor<7x5x100x3xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
