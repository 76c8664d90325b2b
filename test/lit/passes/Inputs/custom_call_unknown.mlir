func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // a library call shlo knows nothing about
  %0 = stablehlo.custom_call @my_lib.fused_gelu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
