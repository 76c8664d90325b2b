module {
  func.func @main(%arg0: tensor<ui32>, %arg1: tensor<4x3xui32>) -> (tensor<4x3xi1>, tensor<4x3xf64>) {
    %0 = stablehlo.reshape %arg0 : (tensor<ui32>) -> tensor<1xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %1 = stablehlo.pad %0, %c, low = [0], high = [11], interior = [0] : (tensor<1xui32>, tensor<ui32>) -> tensor<12xui32>
    %2 = stablehlo.reshape %1 : (tensor<12xui32>) -> tensor<4x3xui32>
    %3 = stablehlo.compare LE, %arg1, %2, UNSIGNED : (tensor<4x3xui32>, tensor<4x3xui32>) -> tensor<4x3xi1>
    %4 = stablehlo.convert %3 : (tensor<4x3xi1>) -> tensor<4x3xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x3xi32>) -> tensor<12xi32>
    %6 = stablehlo.slice %5 [0:1] : (tensor<12xi32>) -> tensor<1xi32>
    %7 = stablehlo.reshape %6 : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %8 = stablehlo.remainder %7, %c_0 : tensor<i32>
    %9 = "stablehlo.case"(%8) ({
      %33 = stablehlo.not %3 : tensor<4x3xi1>
      stablehlo.return %33 : tensor<4x3xi1>
    }, {
      stablehlo.return %3 : tensor<4x3xi1>
    }, {
      stablehlo.return %3 : tensor<4x3xi1>
    }) : (tensor<i32>) -> tensor<4x3xi1>
    %10 = stablehlo.convert %arg0 : (tensor<ui32>) -> tensor<i1>
    %11 = stablehlo.reshape %10 : (tensor<i1>) -> tensor<1xi1>
    %c_1 = stablehlo.constant dense<false> : tensor<i1>
    %12 = stablehlo.pad %11, %c_1, low = [0], high = [11], interior = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<12xi1>
    %13 = stablehlo.reshape %12 : (tensor<12xi1>) -> tensor<4x3xi1>
    %14 = stablehlo.maximum %9, %13 : tensor<4x3xi1>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %15:3 = stablehlo.while(%iterArg = %c_3, %iterArg_10 = %c_2, %iterArg_11 = %14) : tensor<i32>, tensor<i32>, tensor<4x3xi1>
    cond {
      %33 = stablehlo.compare LT, %iterArg, %iterArg_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %33 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %33 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      %34 = stablehlo.not %iterArg_11 : tensor<4x3xi1>
      stablehlo.return %33, %iterArg_10, %34 : tensor<i32>, tensor<i32>, tensor<4x3xi1>
    }
    %16 = stablehlo.convert %3 : (tensor<4x3xi1>) -> tensor<4x3xf64>
    %17 = stablehlo.is_finite %16 : (tensor<4x3xf64>) -> tensor<4x3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x3xf64>
    %19 = stablehlo.select %17, %16, %18 : tensor<4x3xi1>, tensor<4x3xf64>
    %cst_4 = stablehlo.constant dense<-1.000000e+04> : tensor<f64>
    %cst_5 = stablehlo.constant dense<1.000000e+04> : tensor<f64>
    %20 = stablehlo.clamp %cst_4, %19, %cst_5 : (tensor<f64>, tensor<4x3xf64>, tensor<f64>) -> tensor<4x3xf64>
    %21 = stablehlo.convert %arg0 : (tensor<ui32>) -> tensor<f64>
    %22 = stablehlo.reshape %21 : (tensor<f64>) -> tensor<1xf64>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %23 = stablehlo.pad %22, %cst_6, low = [0], high = [8], interior = [0] : (tensor<1xf64>, tensor<f64>) -> tensor<9xf64>
    %24 = stablehlo.is_finite %23 : (tensor<9xf64>) -> tensor<9xi1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<9xf64>
    %26 = stablehlo.select %24, %23, %25 : tensor<9xi1>, tensor<9xf64>
    %cst_8 = stablehlo.constant dense<-1.000000e+04> : tensor<f64>
    %cst_9 = stablehlo.constant dense<1.000000e+04> : tensor<f64>
    %27 = stablehlo.clamp %cst_8, %26, %cst_9 : (tensor<f64>, tensor<9xf64>, tensor<f64>) -> tensor<9xf64>
    %28 = stablehlo.slice %27 [0:3] : (tensor<9xf64>) -> tensor<3xf64>
    %29 = stablehlo.slice %27 [3:6] : (tensor<9xf64>) -> tensor<3xf64>
    %30 = stablehlo.slice %27 [6:9] : (tensor<9xf64>) -> tensor<3xf64>
    %31 = stablehlo.abs %28 : tensor<3xf64>
    %32 = "stablehlo.batch_norm_inference"(%20, %28, %29, %30, %31) <{epsilon = 1.000000e+00 : f32, feature_index = 1 : i64}> : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<4x3xf64>
    return %15#2, %32 : tensor<4x3xi1>, tensor<4x3xf64>
  }
}
