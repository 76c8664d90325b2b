module {
  func.func @main(%arg0: tensor<2xui8>, %arg1: tensor<14x0x10xui8>) -> tensor<2xui8> {
    %0 = stablehlo.reshape %arg1 : (tensor<14x0x10xui8>) -> tensor<0xui8>
    %c = stablehlo.constant dense<0> : tensor<ui8>
    %1 = stablehlo.pad %0, %c, low = [0], high = [2], interior = [0] : (tensor<0xui8>, tensor<ui8>) -> tensor<2xui8>
    %2 = stablehlo.compare LE, %arg0, %1, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
    %3 = stablehlo.reshape %arg1 : (tensor<14x0x10xui8>) -> tensor<0xui8>
    %c_0 = stablehlo.constant dense<0> : tensor<ui8>
    %4 = stablehlo.pad %3, %c_0, low = [0], high = [2], interior = [0] : (tensor<0xui8>, tensor<ui8>) -> tensor<2xui8>
    %5 = stablehlo.select %2, %4, %arg0 : tensor<2xi1>, tensor<2xui8>
    %6 = stablehlo.slice %arg0 [0:1] : (tensor<2xui8>) -> tensor<1xui8>
    %7 = stablehlo.convert %arg0 : (tensor<2xui8>) -> tensor<2xi32>
    %8 = stablehlo.slice %7 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %10 = stablehlo.remainder %9, %c_1 : tensor<i32>
    %11 = stablehlo.dynamic_update_slice %5, %6, %10 : (tensor<2xui8>, tensor<1xui8>, tensor<i32>) -> tensor<2xui8>
    return %11 : tensor<2xui8>
  }
}
