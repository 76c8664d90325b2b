module {
  func.func @main(%arg0: tensor<2xi32>, %arg1: tensor<2xf32>) -> tensor<1x2x2x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg1, %cst, low = [0], high = [2], interior = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0, %cst_0, low = [0], high = [78], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<84xf32>
    %2 = stablehlo.reshape %1 : (tensor<84xf32>) -> tensor<4x7x3x1xf32>
    %3 = stablehlo.convert %arg0 : (tensor<2xi32>) -> tensor<2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.pad %3, %cst_1, low = [0], high = [68], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<70xf32>
    %5 = stablehlo.reshape %4 : (tensor<70xf32>) -> tensor<1x2x7x5xf32>
    %6 = stablehlo.is_finite %2 : (tensor<4x7x3x1xf32>) -> tensor<4x7x3x1xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x7x3x1xf32>
    %8 = stablehlo.select %6, %2, %7 : tensor<4x7x3x1xi1>, tensor<4x7x3x1xf32>
    %cst_3 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %9 = stablehlo.clamp %cst_3, %8, %cst_4 : (tensor<f32>, tensor<4x7x3x1xf32>, tensor<f32>) -> tensor<4x7x3x1xf32>
    %10 = stablehlo.is_finite %5 : (tensor<1x2x7x5xf32>) -> tensor<1x2x7x5xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x2x7x5xf32>
    %12 = stablehlo.select %10, %5, %11 : tensor<1x2x7x5xi1>, tensor<1x2x7x5xf32>
    %cst_6 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %13 = stablehlo.clamp %cst_6, %12, %cst_7 : (tensor<f32>, tensor<1x2x7x5xf32>, tensor<f32>) -> tensor<1x2x7x5xf32>
    %14 = stablehlo.convolution(%9, %13) dim_numbers = [1, f, b, 0]x[0, o, i, 1]->[0, f, 1, b], window = {stride = [1, 1], pad = [[0, 0], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x7x3x1xf32>, tensor<1x2x7x5xf32>) -> tensor<1x2x2x3xf32>
    return %14 : tensor<1x2x2x3xf32>
  }
}
