func.func @main(%a: tensor<18xi32>) -> tensor<18xbf16> {
  %0 = stablehlo.convert %a : (tensor<18xi32>) -> tensor<18xf32>
  %1 = stablehlo.convert %0 : (tensor<18xf32>) -> tensor<18xbf16>
  return %1 : tensor<18xbf16>
}
