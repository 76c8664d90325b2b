// RUN: shlo-opt --shlo-legalize-reducer-rounding %s | filecheck %s

// Inside a reducer body, rounding is computed from floor (IREE cannot compile it there).
// CHECK-LABEL: func.func @in_body
// CHECK:         "stablehlo.reduce_window"
// CHECK-NOT:       stablehlo.round_nearest_even
// CHECK:           stablehlo.floor
// CHECK:           stablehlo.bitcast_convert
// CHECK:         stablehlo.return
func.func @in_body(%x: tensor<8xf64>) -> tensor<8xf64> {
  %c = stablehlo.constant dense<0.0> : tensor<f64>
  %r = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 8>, padding = dense<[[7, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.add %a, %b : tensor<f64>
    %o = stablehlo.round_nearest_even %s : tensor<f64>
    stablehlo.return %o : tensor<f64>
  }) : (tensor<8xf64>, tensor<f64>) -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// Outside reducer bodies IREE's own rounding stays.
// CHECK-LABEL: func.func @outside
// CHECK:         stablehlo.round_nearest_afz %arg0
// CHECK-NOT:     stablehlo.floor
func.func @outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.round_nearest_afz %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
