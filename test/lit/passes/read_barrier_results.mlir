// RUN: shlo-opt --shlo-read-barrier-results %s | filecheck %s

// A value returned and updated in place through a barrier: the return reads the barrier.
// CHECK-LABEL: func.func @returned
// CHECK:         %[[V:.*]] = stablehlo.exponential
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[V]]
// CHECK-NEXT:    %[[D:.*]] = stablehlo.dynamic_update_slice %[[B]]
// CHECK-NEXT:    return %[[B]], %[[D]]
func.func @returned(%x: tensor<64xf32>, %u: tensor<4xf32>, %i: tensor<i32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %v = stablehlo.exponential %x : tensor<64xf32>
  %b = stablehlo.optimization_barrier %v : tensor<64xf32>
  %d = stablehlo.dynamic_update_slice %b, %u, %i : (tensor<64xf32>, tensor<4xf32>, tensor<i32>) -> tensor<64xf32>
  return %v, %d : tensor<64xf32>, tensor<64xf32>
}

// A barrier of a reshape of a value read later: the reader gets the barrier's result
// reshaped back; the barrier and its other operand stay as they were.
// CHECK-LABEL: func.func @view
// CHECK:         %[[W:.*]] = stablehlo.reshape %{{.*}} : (tensor<64xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %[[B:.*]]:2 = stablehlo.optimization_barrier %[[W]], %arg1
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[B]]#0 : (tensor<8x8xf32>) -> tensor<64xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.negate %[[R]]
// CHECK-NEXT:    return %[[B]]#0, %[[N]], %[[B]]#1
func.func @view(%x: tensor<64xf32>, %y: tensor<3xf32>) -> (tensor<8x8xf32>, tensor<64xf32>, tensor<3xf32>) {
  %v = stablehlo.exponential %x : tensor<64xf32>
  %w = stablehlo.reshape %v : (tensor<64xf32>) -> tensor<8x8xf32>
  %b:2 = stablehlo.optimization_barrier %w, %y : tensor<8x8xf32>, tensor<3xf32>
  %n = stablehlo.negate %v : tensor<64xf32>
  return %b#0, %n, %b#1 : tensor<8x8xf32>, tensor<64xf32>, tensor<3xf32>
}

// Readers before the barrier stay; a barrier whose operand nothing else reads after it is
// left alone.
// CHECK-LABEL: func.func @before
// CHECK:         %[[N:.*]] = stablehlo.negate %arg0
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[N]]
// CHECK-NEXT:    %[[A:.*]] = stablehlo.add %arg0, %[[B]]
// CHECK-NEXT:    return %[[A]]
func.func @before(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = stablehlo.negate %x : tensor<4xf32>
  %b = stablehlo.optimization_barrier %n : tensor<4xf32>
  %a = stablehlo.add %x, %b : tensor<4xf32>
  return %a : tensor<4xf32>
}

// A reader nested in a loop after the barrier reads its result.
// CHECK-LABEL: func.func @nested
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %arg0
// CHECK:         stablehlo.while
// CHECK:           stablehlo.add %{{.*}}, %[[B]]
func.func @nested(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %b = stablehlo.optimization_barrier %x : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %a = %b) : tensor<i32>, tensor<4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<i32>
      %s = stablehlo.add %a, %x : tensor<4xf32>
      stablehlo.return %n, %s : tensor<i32>, tensor<4xf32>
    }
  return %r#1, %b : tensor<4xf32>, tensor<4xf32>
}
