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
    %9 = stablehlo.bitcast_convert %4 : (tensor<1x31x1xf16>) -> tensor<1x31x1xi16>
    %c = stablehlo.constant dense<15> : tensor<i16>
    %10 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i16>) -> tensor<1x31x1xi16>
    %11 = stablehlo.shift_right_arithmetic %9, %10 : tensor<1x31x1xi16>
    %c_1 = stablehlo.constant dense<32767> : tensor<i16>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i16>) -> tensor<1x31x1xi16>
    %13 = stablehlo.and %11, %12 : tensor<1x31x1xi16>
    %14 = stablehlo.xor %9, %13 : tensor<1x31x1xi16>
    %15 = stablehlo.bitcast_convert %8 : (tensor<1x31x1xf16>) -> tensor<1x31x1xi16>
    %c_2 = stablehlo.constant dense<15> : tensor<i16>
    %16 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i16>) -> tensor<1x31x1xi16>
    %17 = stablehlo.shift_right_arithmetic %15, %16 : tensor<1x31x1xi16>
    %c_3 = stablehlo.constant dense<32767> : tensor<i16>
    %18 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i16>) -> tensor<1x31x1xi16>
    %19 = stablehlo.and %17, %18 : tensor<1x31x1xi16>
    %20 = stablehlo.xor %15, %19 : tensor<1x31x1xi16>
    %21 = stablehlo.compare LT, %14, %20, SIGNED : (tensor<1x31x1xi16>, tensor<1x31x1xi16>) -> tensor<1x31x1xi1>
    return %21 : tensor<1x31x1xi1>
  }
}
