module {
  func.func @main(%arg0: tensor<4x2x4xf32>, %arg1: tensor<32x2x8xi8>) -> (tensor<4x2x4xf32>, tensor<4x2x4xf32>) {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x2x4xf32>, tensor<4x2x4xf32>) -> tensor<4x2x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x2x4xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<4x2x4xi1>, tensor<4x2x4xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<4x2x4xf32>, tensor<f32>) -> tensor<4x2x4xf32>
    %4 = stablehlo.convert %3 : (tensor<4x2x4xf32>) -> tensor<4x2x4xi32>
    %c = stablehlo.constant dense<-262144> : tensor<i32>
    %c_2 = stablehlo.constant dense<262144> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<4x2x4xi32>, tensor<i32>) -> tensor<4x2x4xi32>
    %6 = stablehlo.iota dim = 0 : tensor<32xi32>
    %7 = stablehlo.reshape %6 : (tensor<32xi32>) -> tensor<4x2x4xi32>
    %c_3 = stablehlo.constant dense<32> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x2x4xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<4x2x4xi32>
    %10 = stablehlo.add %9, %7 : tensor<4x2x4xi32>
    %11 = stablehlo.convert %10 : (tensor<4x2x4xi32>) -> tensor<4x2x4xf32>
    %12 = stablehlo.convert %arg1 : (tensor<32x2x8xi8>) -> tensor<32x2x8xf32>
    %13 = stablehlo.reshape %12 : (tensor<32x2x8xf32>) -> tensor<512xf32>
    %14 = stablehlo.slice %13 [0:6] : (tensor<512xf32>) -> tensor<6xf32>
    %15 = stablehlo.reshape %14 : (tensor<6xf32>) -> tensor<3x1x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = "stablehlo.select_and_scatter"(%11, %15, %cst_4) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 2, 2, 1>, window_strides = array<i64: 1, 2, 2>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %47 = stablehlo.compare GE, %arg2, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %47 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %47 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %47 : tensor<f32>
    }) : (tensor<4x2x4xf32>, tensor<3x1x2xf32>, tensor<f32>) -> tensor<4x2x4xf32>
    %17 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x2x4xf32>, tensor<4x2x4xf32>) -> tensor<4x2x4xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x2x4xf32>
    %19 = stablehlo.select %17, %18, %arg0 : tensor<4x2x4xi1>, tensor<4x2x4xf32>
    %cst_6 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_7 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %20 = stablehlo.clamp %cst_6, %19, %cst_7 : (tensor<f32>, tensor<4x2x4xf32>, tensor<f32>) -> tensor<4x2x4xf32>
    %21 = stablehlo.convert %20 : (tensor<4x2x4xf32>) -> tensor<4x2x4xi32>
    %22 = stablehlo.reshape %21 : (tensor<4x2x4xi32>) -> tensor<32xi32>
    %23 = stablehlo.slice %22 [0:1] : (tensor<32xi32>) -> tensor<1xi32>
    %24 = stablehlo.reshape %23 : (tensor<1xi32>) -> tensor<i32>
    %c_8 = stablehlo.constant dense<5> : tensor<i32>
    %25 = stablehlo.remainder %24, %c_8 : tensor<i32>
    %26 = "stablehlo.case"(%25) ({
      %47 = stablehlo.negate %16 : tensor<4x2x4xf32>
      stablehlo.return %47 : tensor<4x2x4xf32>
    }, {
      %47 = stablehlo.negate %16 : tensor<4x2x4xf32>
      stablehlo.return %47 : tensor<4x2x4xf32>
    }, {
      %47 = stablehlo.add %16, %16 : tensor<4x2x4xf32>
      stablehlo.return %47 : tensor<4x2x4xf32>
    }) : (tensor<i32>) -> tensor<4x2x4xf32>
    %27 = stablehlo.convert %arg1 : (tensor<32x2x8xi8>) -> tensor<32x2x8xf32>
    %28 = stablehlo.reshape %27 : (tensor<32x2x8xf32>) -> tensor<512xf32>
    %29 = stablehlo.slice %28 [0:2] : (tensor<512xf32>) -> tensor<2xf32>
    %30 = stablehlo.reshape %29 : (tensor<2xf32>) -> tensor<1x2x1xf32>
    %31 = stablehlo.convert %arg1 : (tensor<32x2x8xi8>) -> tensor<32x2x8xi32>
    %32 = stablehlo.reshape %31 : (tensor<32x2x8xi32>) -> tensor<512xi32>
    %33 = stablehlo.slice %32 [0:1] : (tensor<512xi32>) -> tensor<1xi32>
    %34 = stablehlo.reshape %33 : (tensor<1xi32>) -> tensor<i32>
    %c_9 = stablehlo.constant dense<6> : tensor<i32>
    %35 = stablehlo.remainder %34, %c_9 : tensor<i32>
    %36 = stablehlo.convert %arg1 : (tensor<32x2x8xi8>) -> tensor<32x2x8xi32>
    %37 = stablehlo.reshape %36 : (tensor<32x2x8xi32>) -> tensor<512xi32>
    %38 = stablehlo.slice %37 [0:1] : (tensor<512xi32>) -> tensor<1xi32>
    %39 = stablehlo.reshape %38 : (tensor<1xi32>) -> tensor<i32>
    %c_10 = stablehlo.constant dense<4> : tensor<i32>
    %40 = stablehlo.remainder %39, %c_10 : tensor<i32>
    %41 = stablehlo.convert %arg1 : (tensor<32x2x8xi8>) -> tensor<32x2x8xi32>
    %42 = stablehlo.reshape %41 : (tensor<32x2x8xi32>) -> tensor<512xi32>
    %43 = stablehlo.slice %42 [0:1] : (tensor<512xi32>) -> tensor<1xi32>
    %44 = stablehlo.reshape %43 : (tensor<1xi32>) -> tensor<i32>
    %c_11 = stablehlo.constant dense<6> : tensor<i32>
    %45 = stablehlo.remainder %44, %c_11 : tensor<i32>
    %46 = stablehlo.dynamic_update_slice %16, %30, %35, %40, %45 : (tensor<4x2x4xf32>, tensor<1x2x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x4xf32>
    return %26, %46 : tensor<4x2x4xf32>, tensor<4x2x4xf32>
  }
}
