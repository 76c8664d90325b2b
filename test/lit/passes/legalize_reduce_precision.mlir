// RUN: shlo-opt --shlo-legalize-reduce-precision %s | filecheck %s

// No mantissa bits: NaN inputs become +inf, every other value is IREE's reduce_precision.
// CHECK-LABEL: func.func @e5m0
// CHECK-DAG:     %[[INF:.*]] = stablehlo.constant dense<0x7FF0000000000000> : tensor<4xf64>
// CHECK-DAG:     %[[R:.*]] = stablehlo.reduce_precision %arg0, format = e5m0 {shlo.canonical}
// CHECK-DAG:     %[[NAN:.*]] = stablehlo.compare  NE, %arg0, %arg0
// CHECK:         stablehlo.select %[[NAN]], %[[INF]], %[[R]]
func.func @e5m0(%x: tensor<4xf64>) -> tensor<4xf64> {
  %r = stablehlo.reduce_precision %x, format = e5m0 : tensor<4xf64>
  return %r : tensor<4xf64>
}

// Negative: with mantissa bits NaN stays NaN, as IREE already does.
// CHECK-LABEL: func.func @e5m2
// CHECK-NEXT:    stablehlo.reduce_precision %arg0, format = e5m2 : tensor<4xf32>
// CHECK-NEXT:    return
func.func @e5m2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.reduce_precision %x, format = e5m2 : tensor<4xf32>
  return %r : tensor<4xf32>
}
