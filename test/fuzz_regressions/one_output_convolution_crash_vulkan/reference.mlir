module {
  func.func @main(%arg0: tensor<f32>) -> tensor<8x1x1x1xf32> {
    %0 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [1007], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<1008xf32>
    %2 = stablehlo.reshape %1 : (tensor<1008xf32>) -> tensor<8x7x3x6xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.pad %3, %cst_0, low = [0], high = [83], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<84xf32>
    %5 = stablehlo.reshape %4 : (tensor<84xf32>) -> tensor<1x3x7x4xf32>
    %6 = stablehlo.is_finite %2 : (tensor<8x7x3x6xf32>) -> tensor<8x7x3x6xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x7x3x6xf32>
    %8 = stablehlo.select %6, %2, %7 : tensor<8x7x3x6xi1>, tensor<8x7x3x6xf32>
    %cst_2 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %9 = stablehlo.clamp %cst_2, %8, %cst_3 : (tensor<f32>, tensor<8x7x3x6xf32>, tensor<f32>) -> tensor<8x7x3x6xf32>
    %10 = stablehlo.is_finite %5 : (tensor<1x3x7x4xf32>) -> tensor<1x3x7x4xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x3x7x4xf32>
    %12 = stablehlo.select %10, %5, %11 : tensor<1x3x7x4xi1>, tensor<1x3x7x4xf32>
    %cst_5 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %13 = stablehlo.clamp %cst_5, %12, %cst_6 : (tensor<f32>, tensor<1x3x7x4xf32>, tensor<f32>) -> tensor<1x3x7x4xf32>
    %14 = stablehlo.convolution(%9, %13) dim_numbers = [b, f, 0, 1]x[o, 0, i, 1]->[b, 0, 1, f], window = {stride = [3, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x7x3x6xf32>, tensor<1x3x7x4xf32>) -> tensor<8x1x1x1xf32>
    return %14 : tensor<8x1x1x1xf32>
  }
}
