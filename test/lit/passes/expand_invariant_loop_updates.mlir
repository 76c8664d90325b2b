// RUN: shlo-opt --split-input-file --shlo-expand-invariant-loop-updates %s | filecheck %s

// IREE 3.13 updates a dynamic_update_slice's operand in place when a while loop leaves
// the operand unchanged; the pass writes those updates as a select.

// Captured from outside the loop: a select over the padded update, placed by a dynamic_slice.
// CHECK-LABEL: func.func @captured
// CHECK:         stablehlo.while
// CHECK:         } do {
// CHECK:           %[[S:.*]] = stablehlo.clamp %{{.*}}, %iterArg, %{{.*}} : tensor<i32>
// CHECK:           %[[P:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [48], high = [48], interior = [0]
// CHECK:           %[[OFF:.*]] = stablehlo.subtract %{{.*}}, %[[S]] : tensor<i32>
// CHECK:           %[[PLACED:.*]] = stablehlo.dynamic_slice %[[P]], %[[OFF]], sizes = [64]
// CHECK:           %[[I:.*]] = stablehlo.iota dim = 0 : tensor<64xi32>
// CHECK:           %[[B:.*]] = stablehlo.broadcast_in_dim %[[S]]
// CHECK:           stablehlo.compare GE, %[[I]], %[[B]]
// CHECK:           stablehlo.compare LT, %[[I]],
// CHECK:           %[[IN:.*]] = stablehlo.and
// CHECK:           stablehlo.select %[[IN]], %[[PLACED]], %arg0
// CHECK-NOT:     dynamic_update_slice
func.func @captured(%a: tensor<64xf32>, %u: tensor<16xf32>) -> tensor<64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<64xf32>
  %0:2 = stablehlo.while(%k = %c0, %acc = %z) : tensor<i32>, tensor<64xf32>
    cond {
      %p = stablehlo.compare LT, %k, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %w = stablehlo.dynamic_update_slice %a, %u, %k : (tensor<64xf32>, tensor<16xf32>, tensor<i32>) -> tensor<64xf32>
      %s = stablehlo.add %acc, %w : tensor<64xf32>
      %n = stablehlo.add %k, %c1 : tensor<i32>
      stablehlo.return %n, %s : tensor<i32>, tensor<64xf32>
    }
  return %0#1 : tensor<64xf32>
}

// -----

// Carried unchanged (jax's closed-over arrays), 2-D, the update as wide as dimension 1.
// CHECK-LABEL: func.func @carried
// CHECK:         } do {
// CHECK:           stablehlo.pad %arg1, %{{.*}}, low = [6, 0], high = [6, 0]
// CHECK:           stablehlo.iota dim = 0 : tensor<8x4xi64>
// CHECK-NOT:       stablehlo.iota dim = 1
// CHECK:           stablehlo.select %{{.*}}, %{{.*}}, %iterArg_7 : tensor<8x4xi1>, tensor<8x4xi32>
// CHECK-NOT:     dynamic_update_slice
func.func @carried(%a: tensor<8x4xi32>, %u: tensor<2x4xi32>) -> tensor<8x4xi32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %c3 = stablehlo.constant dense<3> : tensor<i64>
  %z = stablehlo.constant dense<0> : tensor<8x4xi32>
  %0:3 = stablehlo.while(%k = %c0, %acc = %z, %x = %a) : tensor<i64>, tensor<8x4xi32>, tensor<8x4xi32>
    cond {
      %p = stablehlo.compare LT, %k, %c3 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %w = stablehlo.dynamic_update_slice %x, %u, %k, %c0 : (tensor<8x4xi32>, tensor<2x4xi32>, tensor<i64>, tensor<i64>) -> tensor<8x4xi32>
      %s = stablehlo.add %acc, %w : tensor<8x4xi32>
      %n = stablehlo.add %k, %c1 : tensor<i64>
      stablehlo.return %n, %s, %x : tensor<i64>, tensor<8x4xi32>, tensor<8x4xi32>
    }
  return %0#1 : tensor<8x4xi32>
}

// -----

// A buffer the loop carries and changes (a scan's output), and an update outside any loop: kept.
// CHECK-LABEL: func.func @own_buffer
// CHECK:         stablehlo.while
// CHECK:           stablehlo.dynamic_update_slice %iterArg_2, %arg1, %iterArg
// CHECK:         stablehlo.dynamic_update_slice %arg0, %arg1, %c
// CHECK-NOT:     stablehlo.select
func.func @own_buffer(%a: tensor<64xf32>, %u: tensor<1xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %0:2 = stablehlo.while(%k = %c0, %x = %a) : tensor<i32>, tensor<64xf32>
    cond {
      %p = stablehlo.compare LT, %k, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %w = stablehlo.dynamic_update_slice %x, %u, %k : (tensor<64xf32>, tensor<1xf32>, tensor<i32>) -> tensor<64xf32>
      %n = stablehlo.add %k, %c1 : tensor<i32>
      stablehlo.return %n, %w : tensor<i32>, tensor<64xf32>
    }
  %1 = stablehlo.dynamic_update_slice %a, %u, %c3 : (tensor<64xf32>, tensor<1xf32>, tensor<i32>) -> tensor<64xf32>
  return %0#1, %1 : tensor<64xf32>, tensor<64xf32>
}
