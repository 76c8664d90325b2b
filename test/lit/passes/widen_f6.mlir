// RUN: shlo-opt --shlo-widen-f6 %s | filecheck %s

// f6 values live in f32: the constant keeps its values, the conversion to f6 and the product
// round to the f6 grid (bitcasts to i32, shifts), the conversion back reads the f32.
// CHECK-LABEL: func.func @f
// CHECK-NOT:     f6E2M3FN
// CHECK:         stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK:         stablehlo.constant dense<1.500000e+00> : tensor<4xf32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK:         stablehlo.bitcast_convert %[[P]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK:         return %{{.*}} : tensor<4xf32>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf6E2M3FN>
  %c = stablehlo.constant dense<1.5> : tensor<4xf6E2M3FN>
  %p = stablehlo.multiply %a, %c : tensor<4xf6E2M3FN>
  %o = stablehlo.convert %p : (tensor<4xf6E2M3FN>) -> tensor<4xf32>
  return %o : tensor<4xf32>
}
