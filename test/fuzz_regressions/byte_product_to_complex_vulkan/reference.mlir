module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<2x16xui8>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
    %0 = stablehlo.convert %arg0 : (tensor<f32>) -> tensor<bf16>
    %1 = stablehlo.compare NE, %0, %0, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.select %1, %cst, %0 : tensor<i1>, tensor<bf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %cst_1 = stablehlo.constant dense<2.550000e+02> : tensor<bf16>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : tensor<bf16>
    %4 = stablehlo.convert %3 : (tensor<bf16>) -> tensor<ui8>
    %5 = stablehlo.reshape %4 : (tensor<ui8>) -> tensor<1xui8>
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %6 = stablehlo.pad %5, %c, low = [0], high = [31], interior = [0] : (tensor<1xui8>, tensor<ui8>) -> tensor<32xui8>
    %7 = stablehlo.reshape %6 : (tensor<32xui8>) -> tensor<16x2xui8>
    %8 = stablehlo.dot_general %arg1, %7, contracting_dims = [1] x [0] : (tensor<2x16xui8>, tensor<16x2xui8>) -> tensor<2x2xui8>
    %9 = stablehlo.convert %8 : (tensor<2x2xui8>) -> tensor<2x2xcomplex<f32>>
    %10 = stablehlo.real %9 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
    %11 = stablehlo.imag %9 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
    return %10, %11 : tensor<2x2xf32>, tensor<2x2xf32>
  }
}
