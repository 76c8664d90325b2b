module {
  func.func @main(%arg0: tensor<ui8>, %arg1: tensor<4x6xui8>) -> (tensor<4x6xf32>, tensor<14x7xf32>) {
    %0 = stablehlo.convert %arg1 : (tensor<4x6xui8>) -> tensor<4x6xi32>
    %c = stablehlo.constant dense<-349525> : tensor<i32>
    %c_0 = stablehlo.constant dense<349525> : tensor<i32>
    %1 = stablehlo.clamp %c, %0, %c_0 : (tensor<i32>, tensor<4x6xi32>, tensor<i32>) -> tensor<4x6xi32>
    %2 = stablehlo.iota dim = 0 : tensor<24xi32>
    %3 = stablehlo.reshape %2 : (tensor<24xi32>) -> tensor<4x6xi32>
    %c_1 = stablehlo.constant dense<24> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x6xi32>
    %5 = stablehlo.multiply %1, %4 : tensor<4x6xi32>
    %6 = stablehlo.add %5, %3 : tensor<4x6xi32>
    %7 = stablehlo.convert %6 : (tensor<4x6xi32>) -> tensor<4x6xf32>
    %8 = stablehlo.convert %arg0 : (tensor<ui8>) -> tensor<f32>
    %9 = stablehlo.reshape %8 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.pad %9, %cst, low = [0], high = [15], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<16xf32>
    %11 = stablehlo.reshape %10 : (tensor<16xf32>) -> tensor<4x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = "stablehlo.select_and_scatter"(%7, %11, %cst_2) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %31 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %31 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x6xf32>
    %13 = stablehlo.convert %arg1 : (tensor<4x6xui8>) -> tensor<4x6xi32>
    %c_3 = stablehlo.constant dense<-349525> : tensor<i32>
    %c_4 = stablehlo.constant dense<349525> : tensor<i32>
    %14 = stablehlo.clamp %c_3, %13, %c_4 : (tensor<i32>, tensor<4x6xi32>, tensor<i32>) -> tensor<4x6xi32>
    %15 = stablehlo.iota dim = 0 : tensor<24xi32>
    %16 = stablehlo.reshape %15 : (tensor<24xi32>) -> tensor<4x6xi32>
    %c_5 = stablehlo.constant dense<24> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<4x6xi32>
    %18 = stablehlo.multiply %14, %17 : tensor<4x6xi32>
    %19 = stablehlo.add %18, %16 : tensor<4x6xi32>
    %20 = stablehlo.convert %19 : (tensor<4x6xi32>) -> tensor<4x6xf32>
    %21 = stablehlo.convert %arg1 : (tensor<4x6xui8>) -> tensor<4x6xf32>
    %22 = stablehlo.reshape %21 : (tensor<4x6xf32>) -> tensor<24xf32>
    %23 = stablehlo.slice %22 [0:8] : (tensor<24xf32>) -> tensor<8xf32>
    %24 = stablehlo.reshape %23 : (tensor<8xf32>) -> tensor<2x4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = "stablehlo.select_and_scatter"(%20, %24, %cst_6) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.compare GE, %arg2, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %31 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %31 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %31 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x6xf32>
    %26 = stablehlo.reshape %25 : (tensor<4x6xf32>) -> tensor<24xf32>
    %27 = stablehlo.slice %26 [0:1] : (tensor<24xf32>) -> tensor<1xf32>
    %28 = stablehlo.reshape %27 : (tensor<1xf32>) -> tensor<f32>
    %29 = stablehlo.pad %25, %28, low = [2, 2], high = [2, 0], interior = [2, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<14x8xf32>
    %30 = stablehlo.slice %29 [0:14, 0:7] : (tensor<14x8xf32>) -> tensor<14x7xf32>
    return %12, %30 : tensor<4x6xf32>, tensor<14x7xf32>
  }
}
