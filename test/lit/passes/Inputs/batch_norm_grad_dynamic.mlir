func.func @main(%x: tensor<?x3xf32>, %s: tensor<3xf32>, %dy: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<?x3xf32>
}
