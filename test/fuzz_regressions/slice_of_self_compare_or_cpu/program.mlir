module {
  func.func @main(%arg0: tensor<4x15xui8>, %arg1: tensor<4x9x16x31xi1>) -> tensor<1x8xi1> {
    %0 = stablehlo.compare LE, %arg0, %arg0, UNSIGNED : (tensor<4x15xui8>, tensor<4x15xui8>) -> tensor<4x15xi1>
    %1 = stablehlo.reshape %arg1 : (tensor<4x9x16x31xi1>) -> tensor<17856xi1>
    %2 = stablehlo.slice %1 [0:60] : (tensor<17856xi1>) -> tensor<60xi1>
    %3 = stablehlo.reshape %2 : (tensor<60xi1>) -> tensor<4x15xi1>
    %4 = stablehlo.or %0, %3 : tensor<4x15xi1>
    %5 = stablehlo.slice %4 [1:2:3, 2:10] : (tensor<4x15xi1>) -> tensor<1x8xi1>
    return %5 : tensor<1x8xi1>
  }
}
