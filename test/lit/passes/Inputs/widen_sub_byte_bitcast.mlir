func.func @main(%a: tensor<3x2xi4>) -> tensor<3xi8> {
  // two nibbles into a byte: widening would change the bit layout
  %0 = stablehlo.bitcast_convert %a : (tensor<3x2xi4>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}
