func.func @checks() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.add %0, %0 : tensor<2xf32>
  check.expect_eq %1, %1 : tensor<2xf32>
  check.expect_eq_const %1, dense<[2.0, 4.0]> : tensor<2xf32>
  check.expect_almost_eq_const %1, dense<[2.0, 4.0]> : tensor<2xf32> {tolerance = 0.1 : f64}
  check.expect_close %1, %1, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  %2 = interpreter.probe %1, probe_id = "sum" : tensor<2xf32>
  check.expect_serialized_eq %2, probe_id = "sum" : tensor<2xf32>
  func.return
}
