module {
  func.func @main(%arg0: tensor<f64>) -> (tensor<1x3x6x3xf32>, tensor<1x3x6x3xf32>) {
    %0 = stablehlo.reshape %arg0 : (tensor<f64>) -> tensor<1xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [14], interior = [0] : (tensor<1xf64>, tensor<f64>) -> tensor<15xf64>
    %2 = stablehlo.reshape %1 : (tensor<15xf64>) -> tensor<5x3x1x1xf64>
    %3 = stablehlo.reshape %arg0 : (tensor<f64>) -> tensor<1xf64>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %4 = stablehlo.pad %3, %cst_0, low = [0], high = [5], interior = [0] : (tensor<1xf64>, tensor<f64>) -> tensor<6xf64>
    %5 = stablehlo.reshape %4 : (tensor<6xf64>) -> tensor<1x3x1x2xf64>
    %6 = stablehlo.is_finite %2 : (tensor<5x3x1x1xf64>) -> tensor<5x3x1x1xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<5x3x1x1xf64>
    %8 = stablehlo.select %6, %2, %7 : tensor<5x3x1x1xi1>, tensor<5x3x1x1xf64>
    %cst_2 = stablehlo.constant dense<-1.000000e+30> : tensor<f64>
    %cst_3 = stablehlo.constant dense<1.000000e+30> : tensor<f64>
    %9 = stablehlo.clamp %cst_2, %8, %cst_3 : (tensor<f64>, tensor<5x3x1x1xf64>, tensor<f64>) -> tensor<5x3x1x1xf64>
    %10 = stablehlo.is_finite %5 : (tensor<1x3x1x2xf64>) -> tensor<1x3x1x2xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<1x3x1x2xf64>
    %12 = stablehlo.select %10, %5, %11 : tensor<1x3x1x2xi1>, tensor<1x3x1x2xf64>
    %cst_5 = stablehlo.constant dense<-1.000000e+30> : tensor<f64>
    %cst_6 = stablehlo.constant dense<1.000000e+30> : tensor<f64>
    %13 = stablehlo.clamp %cst_5, %12, %cst_6 : (tensor<f64>, tensor<1x3x1x2xf64>, tensor<f64>) -> tensor<1x3x1x2xf64>
    %14 = stablehlo.convolution(%9, %13) dim_numbers = [0, b, 1, f]x[i, o, 1, 0]->[1, f, 0, b], window = {stride = [1, 3], pad = [[1, 2], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<5x3x1x1xf64>, tensor<1x3x1x2xf64>) -> tensor<1x3x6x3xf64>
    %15 = stablehlo.convert %14 : (tensor<1x3x6x3xf64>) -> tensor<1x3x6x3xf32>
    %16 = stablehlo.convert %arg0 : (tensor<f64>) -> tensor<f32>
    %17 = stablehlo.reshape %16 : (tensor<f32>) -> tensor<1xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.pad %17, %cst_7, low = [0], high = [53], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<54xf32>
    %19 = stablehlo.reshape %18 : (tensor<54xf32>) -> tensor<1x3x6x3xf32>
    %20 = stablehlo.complex %15, %19 : tensor<1x3x6x3xcomplex<f32>>
    %21 = stablehlo.real %20 : (tensor<1x3x6x3xcomplex<f32>>) -> tensor<1x3x6x3xf32>
    %22 = stablehlo.imag %20 : (tensor<1x3x6x3xcomplex<f32>>) -> tensor<1x3x6x3xf32>
    return %21, %22 : tensor<1x3x6x3xf32>, tensor<1x3x6x3xf32>
  }
}
