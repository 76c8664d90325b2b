module {
  func.func @main(%arg0: tensor<2x1x31xf16>, %arg1: tensor<0x9xf64>) -> tensor<1x31x1xi1> {
    %0 = stablehlo.convert %arg1 : (tensor<0x9xf64>) -> tensor<0x9xf16>
    %1 = stablehlo.reshape %0 : (tensor<0x9xf16>) -> tensor<0xf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [2], interior = [0] : (tensor<0xf16>, tensor<f16>) -> tensor<2xf16>
    %3 = stablehlo.reshape %2 : (tensor<2xf16>) -> tensor<2x1xf16>
    %4 = stablehlo.dot_general %arg0, %3, contracting_dims = [0] x [0] : (tensor<2x1x31xf16>, tensor<2x1xf16>) -> tensor<1x31x1xf16>
    %5 = stablehlo.convert %arg1 : (tensor<0x9xf64>) -> tensor<0x9xf16>
    %6 = stablehlo.reshape %5 : (tensor<0x9xf16>) -> tensor<0xf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %7 = stablehlo.pad %6, %cst_0, low = [0], high = [31], interior = [0] : (tensor<0xf16>, tensor<f16>) -> tensor<31xf16>
    %8 = stablehlo.reshape %7 : (tensor<31xf16>) -> tensor<1x31x1xf16>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<1x31x1xf16>, tensor<1x31x1xf16>) -> tensor<1x31x1xi1>
    return %9 : tensor<1x31x1xi1>
  }
}
