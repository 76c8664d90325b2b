module {
  func.func @main(%arg0: tensor<bf16>, %arg1: tensor<2x16xui8>) -> tensor<2x2xcomplex<f32>> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.select %0, %cst, %arg0 : tensor<i1>, tensor<bf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %cst_1 = stablehlo.constant dense<2.550000e+02> : tensor<bf16>
    %2 = stablehlo.clamp %cst_0, %1, %cst_1 : tensor<bf16>
    %3 = stablehlo.convert %2 : (tensor<bf16>) -> tensor<ui8>
    %4 = stablehlo.reshape %3 : (tensor<ui8>) -> tensor<1xui8>
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %5 = stablehlo.pad %4, %c, low = [0], high = [31], interior = [0] : (tensor<1xui8>, tensor<ui8>) -> tensor<32xui8>
    %6 = stablehlo.reshape %5 : (tensor<32xui8>) -> tensor<16x2xui8>
    %7 = stablehlo.dot_general %arg1, %6, contracting_dims = [1] x [0] : (tensor<2x16xui8>, tensor<16x2xui8>) -> tensor<2x2xui8>
    %8 = stablehlo.convert %7 : (tensor<2x2xui8>) -> tensor<2x2xcomplex<f32>>
    return %8 : tensor<2x2xcomplex<f32>>
  }
}
