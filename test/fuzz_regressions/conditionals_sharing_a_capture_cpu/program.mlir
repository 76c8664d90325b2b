module {
  func.func @main(%arg0: tensor<f16>, %arg1: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
    %0 = stablehlo.real %arg1 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %1 = stablehlo.compare NE, %0, %0, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.select %1, %2, %0 : tensor<3xi1>, tensor<3xf32>
    %cst_0 = stablehlo.constant dense<-9.22337203E+18> : tensor<f32>
    %cst_1 = stablehlo.constant dense<9.22337149E+18> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.convert %4 : (tensor<3xf32>) -> tensor<3xi64>
    %6 = stablehlo.real %arg1 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %7 = stablehlo.convert %6 : (tensor<3xf32>) -> tensor<3xi1>
    %8 = stablehlo.slice %7 [0:1] : (tensor<3xi1>) -> tensor<1xi1>
    %9 = stablehlo.reshape %8 : (tensor<1xi1>) -> tensor<i1>
    %10 = "stablehlo.if"(%9) ({
      %33 = stablehlo.add %5, %5 : tensor<3xi64>
      stablehlo.return %33 : tensor<3xi64>
    }, {
      %33 = stablehlo.negate %5 : tensor<3xi64>
      stablehlo.return %33 : tensor<3xi64>
    }) : (tensor<i1>) -> tensor<3xi64>
    %11 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %12 = stablehlo.select %11, %cst_2, %arg0 : tensor<i1>, tensor<f16>
    %cst_3 = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
    %cst_4 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %13 = stablehlo.clamp %cst_3, %12, %cst_4 : tensor<f16>
    %14 = stablehlo.convert %13 : (tensor<f16>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %15 = stablehlo.remainder %14, %c : tensor<i32>
    %16 = "stablehlo.case"(%15) ({
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %33 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %34 = stablehlo.subtract %10, %33 : tensor<3xi64>
      stablehlo.return %34 : tensor<3xi64>
    }, {
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %33 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %34 = stablehlo.subtract %10, %33 : tensor<3xi64>
      stablehlo.return %34 : tensor<3xi64>
    }, {
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %33 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %34 = stablehlo.subtract %10, %33 : tensor<3xi64>
      stablehlo.return %34 : tensor<3xi64>
    }) : (tensor<i32>) -> tensor<3xi64>
    %17 = stablehlo.convert %16 : (tensor<3xi64>) -> tensor<3xf32>
    %18 = stablehlo.is_finite %17 : (tensor<3xf32>) -> tensor<3xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %20 = stablehlo.select %18, %17, %19 : tensor<3xi1>, tensor<3xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %21 = stablehlo.clamp %cst_6, %20, %cst_7 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %22 = stablehlo.convert %5 : (tensor<3xi64>) -> tensor<3xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.pad %22, %cst_8, low = [0], high = [6], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<9xf32>
    %24 = stablehlo.is_finite %23 : (tensor<9xf32>) -> tensor<9xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %26 = stablehlo.select %24, %23, %25 : tensor<9xi1>, tensor<9xf32>
    %cst_10 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %27 = stablehlo.clamp %cst_10, %26, %cst_11 : (tensor<f32>, tensor<9xf32>, tensor<f32>) -> tensor<9xf32>
    %28 = stablehlo.slice %27 [0:3] : (tensor<9xf32>) -> tensor<3xf32>
    %29 = stablehlo.slice %27 [3:6] : (tensor<9xf32>) -> tensor<3xf32>
    %30 = stablehlo.slice %27 [6:9] : (tensor<9xf32>) -> tensor<3xf32>
    %31 = stablehlo.abs %28 : tensor<3xf32>
    %32 = "stablehlo.batch_norm_inference"(%21, %28, %29, %30, %31) <{epsilon = 1.000000e-01 : f32, feature_index = 0 : i64}> : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %32 : tensor<3xf32>
  }
}
