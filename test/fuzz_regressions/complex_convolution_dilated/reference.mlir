module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<1x3x1x3xf32>, tensor<1x3x1x3xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<complex<f32>>
    %1 = stablehlo.reshape %0 : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [143], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<144xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<144xcomplex<f32>>) -> tensor<3x1x8x6xcomplex<f32>>
    %4 = stablehlo.reshape %0 : (tensor<complex<f32>>) -> tensor<1xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.pad %4, %cst_0, low = [0], high = [31], interior = [0] : (tensor<1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<32xcomplex<f32>>
    %6 = stablehlo.reshape %5 : (tensor<32xcomplex<f32>>) -> tensor<1x8x4x1xcomplex<f32>>
    %7 = stablehlo.convolution(%3, %6) dim_numbers = [b, 1, f, 0]x[o, i, 0, 1]->[1, 0, f, b], window = {stride = [1, 1], pad = [[1, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x1x8x6xcomplex<f32>>, tensor<1x8x4x1xcomplex<f32>>) -> tensor<1x3x1x3xcomplex<f32>>
    %8 = stablehlo.real %7 : (tensor<1x3x1x3xcomplex<f32>>) -> tensor<1x3x1x3xf32>
    %9 = stablehlo.imag %7 : (tensor<1x3x1x3xcomplex<f32>>) -> tensor<1x3x1x3xf32>
    return %8, %9 : tensor<1x3x1x3xf32>, tensor<1x3x1x3xf32>
  }
}
