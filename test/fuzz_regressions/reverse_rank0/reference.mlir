func.func @main(%a: tensor<ui32>) -> tensor<ui32> {
  %0 = stablehlo.reverse %a, dims = [] : tensor<ui32>
  return %0 : tensor<ui32>
}
