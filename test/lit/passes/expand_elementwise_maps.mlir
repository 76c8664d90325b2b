// RUN: shlo-opt --shlo-expand-elementwise-maps %s | filecheck %s

// A map of elementwise ops and a scalar constant: the ops on whole tensors, the constant a
// splat; one operand read twice gives x - x of one value.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:     stablehlo.map
// CHECK:         %[[D:.*]] = stablehlo.subtract %arg0, %arg0 : tensor<4x16xf16>
// CHECK:         %[[S:.*]] = stablehlo.sine %[[D]] : tensor<4x16xf16>
// CHECK:         stablehlo.add %[[S]], %{{.*}} : tensor<4x16xf16>
func.func @elementwise(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %0 = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %d = stablehlo.subtract %a, %b : tensor<f16>
    %s = stablehlo.sine %d : tensor<f16>
    %c = stablehlo.constant dense<1.0> : tensor<f16>
    %r = stablehlo.add %s, %c : tensor<f16>
    stablehlo.return %r : tensor<f16>
  }) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// A body with an op that is not elementwise (a reduce over a scalar's reshape) stays a map.
// CHECK-LABEL: func.func @not_elementwise
// CHECK:         stablehlo.map
func.func @not_elementwise(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.map"(%x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>):
    %r = stablehlo.reshape %a : (tensor<f32>) -> tensor<1xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
