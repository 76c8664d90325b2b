func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // a host queue IREE's runtime does not have
  %t = stablehlo.create_token : !stablehlo.token
  %t2 = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %x : tensor<4xf32>
}
