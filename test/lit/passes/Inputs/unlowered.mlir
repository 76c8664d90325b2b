func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // an op with no lowering yet
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
