module {
  func.func @main(%arg0: tensor<f16>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.complex %arg1, %arg2 : tensor<3xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %2 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %4 = stablehlo.select %2, %3, %1 : tensor<3xi1>, tensor<3xf32>
    %cst_0 = stablehlo.constant dense<-9.22337203E+18> : tensor<f32>
    %cst_1 = stablehlo.constant dense<9.22337149E+18> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %6 = stablehlo.convert %5 : (tensor<3xf32>) -> tensor<3xi64>
    %7 = stablehlo.real %0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %8 = stablehlo.convert %7 : (tensor<3xf32>) -> tensor<3xi1>
    %9 = stablehlo.slice %8 [0:1] : (tensor<3xi1>) -> tensor<1xi1>
    %10 = stablehlo.reshape %9 : (tensor<1xi1>) -> tensor<i1>
    %11 = "stablehlo.if"(%10) ({
      %34 = stablehlo.add %6, %6 : tensor<3xi64>
      stablehlo.return %34 : tensor<3xi64>
    }, {
      %34 = stablehlo.negate %6 : tensor<3xi64>
      stablehlo.return %34 : tensor<3xi64>
    }) : (tensor<i1>) -> tensor<3xi64>
    %12 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %13 = stablehlo.select %12, %cst_2, %arg0 : tensor<i1>, tensor<f16>
    %cst_3 = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
    %cst_4 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %14 = stablehlo.clamp %cst_3, %13, %cst_4 : tensor<f16>
    %15 = stablehlo.convert %14 : (tensor<f16>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %16 = stablehlo.remainder %15, %c : tensor<i32>
    %17 = "stablehlo.case"(%16) ({
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %34 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %35 = stablehlo.subtract %11, %34 : tensor<3xi64>
      stablehlo.return %35 : tensor<3xi64>
    }, {
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %34 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %35 = stablehlo.subtract %11, %34 : tensor<3xi64>
      stablehlo.return %35 : tensor<3xi64>
    }, {
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %34 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<3xi64>
      %35 = stablehlo.subtract %11, %34 : tensor<3xi64>
      stablehlo.return %35 : tensor<3xi64>
    }) : (tensor<i32>) -> tensor<3xi64>
    %18 = stablehlo.convert %17 : (tensor<3xi64>) -> tensor<3xf32>
    %19 = stablehlo.is_finite %18 : (tensor<3xf32>) -> tensor<3xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %21 = stablehlo.select %19, %18, %20 : tensor<3xi1>, tensor<3xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %22 = stablehlo.clamp %cst_6, %21, %cst_7 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %23 = stablehlo.convert %6 : (tensor<3xi64>) -> tensor<3xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.pad %23, %cst_8, low = [0], high = [6], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<9xf32>
    %25 = stablehlo.is_finite %24 : (tensor<9xf32>) -> tensor<9xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %27 = stablehlo.select %25, %24, %26 : tensor<9xi1>, tensor<9xf32>
    %cst_10 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %28 = stablehlo.clamp %cst_10, %27, %cst_11 : (tensor<f32>, tensor<9xf32>, tensor<f32>) -> tensor<9xf32>
    %29 = stablehlo.slice %28 [0:3] : (tensor<9xf32>) -> tensor<3xf32>
    %30 = stablehlo.slice %28 [3:6] : (tensor<9xf32>) -> tensor<3xf32>
    %31 = stablehlo.slice %28 [6:9] : (tensor<9xf32>) -> tensor<3xf32>
    %32 = stablehlo.abs %29 : tensor<3xf32>
    %33 = "stablehlo.batch_norm_inference"(%22, %29, %30, %31, %32) <{epsilon = 1.000000e-01 : f32, feature_index = 0 : i64}> : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %33 : tensor<3xf32>
  }
}
