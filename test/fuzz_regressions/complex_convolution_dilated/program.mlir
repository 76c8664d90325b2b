module {
  func.func @main(%arg0: tensor<complex<f32>>) -> tensor<1x3x1x3xcomplex<f32>> {
    %0 = stablehlo.reshape %arg0 : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.pad %0, %cst, low = [0], high = [143], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<144xcomplex<f32>>
    %2 = stablehlo.reshape %1 : (tensor<144xcomplex<f32>>) -> tensor<3x1x8x6xcomplex<f32>>
    %3 = stablehlo.reshape %arg0 : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.pad %3, %cst_0, low = [0], high = [31], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<32xcomplex<f32>>
    %5 = stablehlo.reshape %4 : (tensor<32xcomplex<f32>>) -> tensor<1x8x4x1xcomplex<f32>>
    %6 = stablehlo.convolution(%2, %5) dim_numbers = [b, 1, f, 0]x[o, i, 0, 1]->[1, 0, f, b], window = {stride = [1, 1], pad = [[1, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x1x8x6xcomplex<f32>>, tensor<1x8x4x1xcomplex<f32>>) -> tensor<1x3x1x3xcomplex<f32>>
    return %6 : tensor<1x3x1x3xcomplex<f32>>
  }
}
