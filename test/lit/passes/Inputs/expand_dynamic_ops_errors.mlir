// Too many ambiguous dimensions.
func.func @too_many(%a: tensor<?x?x?x?x?xf32>, %s: tensor<5xi64>) -> tensor<?x?x?x?x?xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [0, 1, 2, 3, 4] : (tensor<?x?x?x?x?xf32>, tensor<5xi64>) -> tensor<?x?x?x?x?xf32>
  return %0 : tensor<?x?x?x?x?xf32>
}
