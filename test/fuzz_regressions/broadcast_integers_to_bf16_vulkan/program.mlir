module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<2x1xi8>) -> tensor<7x2x1xbf16> {
    %0 = stablehlo.convert %arg1 : (tensor<2x1xi8>) -> tensor<2x1xf32>
    %1 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<f32>
    %2 = stablehlo.reshape %1 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.pad %2, %cst, low = [0], high = [1], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<2xf32>
    %4 = stablehlo.reshape %3 : (tensor<2xf32>) -> tensor<2x1xf32>
    %5 = stablehlo.complex %0, %4 : tensor<2x1xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<2x1xcomplex<f32>>) -> tensor<7x2x1xcomplex<f32>>
    %7 = stablehlo.real %6 : (tensor<7x2x1xcomplex<f32>>) -> tensor<7x2x1xf32>
    %8 = stablehlo.convert %7 : (tensor<7x2x1xf32>) -> tensor<7x2x1xbf16>
    return %8 : tensor<7x2x1xbf16>
  }
}
