module {
  func.func @main(%arg0: tensor<1x2xi8>) -> (tensor<1x1x8x2x2xf32>, tensor<1x1x8x2x2xf32>) {
    %0 = stablehlo.reshape %arg0 : (tensor<1x2xi8>) -> tensor<2xi8>
    %c = stablehlo.constant dense<0> : tensor<i8>
    %1 = stablehlo.pad %0, %c, low = [0], high = [14], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<16xi8>
    %2 = stablehlo.reshape %1 : (tensor<16xi8>) -> tensor<2x1x8xi8>
    %3 = stablehlo.dot_general %arg0, %2, contracting_dims = [1] x [0] : (tensor<1x2xi8>, tensor<2x1x8xi8>) -> tensor<1x1x8xi8>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x1x8xi8>) -> tensor<1x1x8x2x2xi8>
    %5 = stablehlo.convert %4 : (tensor<1x1x8x2x2xi8>) -> tensor<1x1x8x2x2xf32>
    %6 = stablehlo.convert %3 : (tensor<1x1x8xi8>) -> tensor<1x1x8xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x1x8xf32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.pad %7, %cst, low = [0], high = [24], interior = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<32xf32>
    %9 = stablehlo.reshape %8 : (tensor<32xf32>) -> tensor<1x1x8x2x2xf32>
    %10 = stablehlo.complex %5, %9 : tensor<1x1x8x2x2xcomplex<f32>>
    %11 = stablehlo.real %10 : (tensor<1x1x8x2x2xcomplex<f32>>) -> tensor<1x1x8x2x2xf32>
    %12 = stablehlo.imag %10 : (tensor<1x1x8x2x2xcomplex<f32>>) -> tensor<1x1x8x2x2xf32>
    return %11, %12 : tensor<1x1x8x2x2xf32>, tensor<1x1x8x2x2xf32>
  }
}
