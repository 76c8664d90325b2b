module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<16x33xf32>) -> tensor<3x2x1xf32> {
    %0 = stablehlo.reshape %arg1 : (tensor<16x33xf32>) -> tensor<528xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [7920], interior = [0] : (tensor<528xf32>, tensor<f32>) -> tensor<8448xf32>
    %2 = stablehlo.reshape %1 : (tensor<8448xf32>) -> tensor<16x33x2x8xf32>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [0, 1] x [0, 1] : (tensor<16x33xf32>, tensor<16x33x2x8xf32>) -> tensor<2x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %5 = stablehlo.compare EQ, %3, %4, FLOAT : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xi1>
    %6 = stablehlo.select %5, %4, %3 : tensor<2x8xi1>, tensor<2x8xf32>
    %7 = stablehlo.reshape %6 : (tensor<2x8xf32>) -> tensor<16xf32>
    %8 = stablehlo.slice %7 [0:6] : (tensor<16xf32>) -> tensor<6xf32>
    %9 = stablehlo.reshape %8 : (tensor<6xf32>) -> tensor<1x3x2xf32>
    %10 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.pad %10, %cst_1, low = [0], high = [5], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<6xf32>
    %12 = stablehlo.reshape %11 : (tensor<6xf32>) -> tensor<3x2x1xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.is_finite %9 : (tensor<1x3x2xf32>) -> tensor<1x3x2xi1>
    %14 = stablehlo.abs %9 : tensor<1x3x2xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %16 = stablehlo.select %13, %14, %15 : tensor<1x3x2xi1>, tensor<1x3x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_4) applies stablehlo.maximum across dimensions = [0, 1, 2] : (tensor<1x3x2xf32>, tensor<f32>) -> tensor<f32>
    %18 = stablehlo.maximum %17, %cst_2 : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.84467441E+19> : tensor<f32>
    %19 = stablehlo.compare GT, %18, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_6 = stablehlo.constant dense<5.42101086E-20> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.select %19, %cst_6, %cst_7 : tensor<i1>, tensor<f32>
    %21 = stablehlo.multiply %18, %20 : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %23 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %24 = stablehlo.multiply %9, %22 : tensor<1x3x2xf32>
    %25 = stablehlo.divide %24, %23 : tensor<1x3x2xf32>
    %26 = stablehlo.abs %25 : tensor<1x3x2xf32>
    %cst_8 = stablehlo.constant dense<1.17549435E-38> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %28 = stablehlo.compare LT, %26, %27, FLOAT : (tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> tensor<1x3x2xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %30 = stablehlo.select %28, %29, %25 : tensor<1x3x2xi1>, tensor<1x3x2xf32>
    %31 = stablehlo.is_finite %30 : (tensor<1x3x2xf32>) -> tensor<1x3x2xi1>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x3x2xf32>
    %33 = stablehlo.select %31, %30, %32 : tensor<1x3x2xi1>, tensor<1x3x2xf32>
    %cst_11 = stablehlo.constant dense<-9.99999986E+14> : tensor<f32>
    %cst_12 = stablehlo.constant dense<9.99999986E+14> : tensor<f32>
    %34 = stablehlo.clamp %cst_11, %33, %cst_12 : (tensor<f32>, tensor<1x3x2xf32>, tensor<f32>) -> tensor<1x3x2xf32>
    %35 = stablehlo.is_finite %12 : (tensor<3x2x1xf32>) -> tensor<3x2x1xi1>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x2x1xf32>
    %37 = stablehlo.select %35, %12, %36 : tensor<3x2x1xi1>, tensor<3x2x1xf32>
    %cst_14 = stablehlo.constant dense<-9.99999986E+14> : tensor<f32>
    %cst_15 = stablehlo.constant dense<9.99999986E+14> : tensor<f32>
    %38 = stablehlo.clamp %cst_14, %37, %cst_15 : (tensor<f32>, tensor<3x2x1xf32>, tensor<f32>) -> tensor<3x2x1xf32>
    %39 = stablehlo.convolution(%34, %38) dim_numbers = [b, f, 0]x[i, o, 0]->[0, f, b], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [2], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x2xf32>, tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x2x1xf32>
    %41 = stablehlo.compare EQ, %39, %40, FLOAT : (tensor<3x2x1xf32>, tensor<3x2x1xf32>) -> tensor<3x2x1xi1>
    %42 = stablehlo.select %41, %40, %39 : tensor<3x2x1xi1>, tensor<3x2x1xf32>
    return %42 : tensor<3x2x1xf32>
  }
}
