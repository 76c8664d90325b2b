// A window of run-time length that is not cumulative (no padding): still an error.
func.func @sliding_sum(%x: tensor<?xf32>, %w: tensor<1xi32>) -> tensor<?xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %pad = stablehlo.constant dense<0> : tensor<1x2xi32>
  %0 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%x, %zero, %w, %c1, %c1, %c1, %pad) {called_computations = [@add_reducer]} : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func private @add_reducer(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
