module {
  func.func @main(%arg0: tensor<f64>, %arg1: tensor<0x1xf64>) -> tensor<5x8xf64> {
    %0 = stablehlo.reshape %arg0 : (tensor<f64>) -> tensor<1xf64>
    %1 = stablehlo.slice %0 [0:0] : (tensor<1xf64>) -> tensor<0xf64>
    %2 = stablehlo.reshape %1 : (tensor<0xf64>) -> tensor<1x0x5x8xf64>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [1, 0] x [0, 1] : (tensor<0x1xf64>, tensor<1x0x5x8xf64>) -> tensor<5x8xf64>
    return %3 : tensor<5x8xf64>
  }
}
