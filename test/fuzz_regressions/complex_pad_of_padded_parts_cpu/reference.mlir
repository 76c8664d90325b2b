module {
  func.func @main(%arg0: tensor<2xi64>, %arg1: tensor<4xi8>) -> (tensor<11xf32>, tensor<11xf32>) {
    %0 = stablehlo.convert %arg1 : (tensor<4xi8>) -> tensor<4xf32>
    %1 = stablehlo.convert %arg0 : (tensor<2xi64>) -> tensor<2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [2], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.complex %0, %2 : tensor<4xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.pad %3, %cst_0, low = [1], high = [0], interior = [2] : (tensor<4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<11xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<11xcomplex<f32>>) -> tensor<11xf32>
    %6 = stablehlo.imag %4 : (tensor<11xcomplex<f32>>) -> tensor<11xf32>
    return %5, %6 : tensor<11xf32>, tensor<11xf32>
  }
}
