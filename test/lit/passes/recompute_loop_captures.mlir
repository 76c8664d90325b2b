// RUN: shlo-opt --shlo-recompute-loop-captures %s | filecheck %s

// In a loop body, a tensor a conditional reads and an op after it reads too: that op reads a
// copy of the ops computing it, from the carried value read through an optimization barrier.
// CHECK-LABEL: func.func @read_in_a_conditional_and_after
// CHECK:         stablehlo.while
// CHECK:           %[[Y:.*]] = stablehlo.sine %[[ACC:[^ ]*]]
// CHECK:           %[[H:.*]] = stablehlo.multiply %[[Y]], %[[Y]]
// CHECK:           "stablehlo.if"
// CHECK:             stablehlo.dot_general %[[H]]
// CHECK:           %[[B:.*]] = stablehlo.optimization_barrier %[[ACC]] : tensor<8x8xf32>
// CHECK-NEXT:      %[[Y2:.*]] = stablehlo.sine %[[B]]
// CHECK-NEXT:      %[[H2:.*]] = stablehlo.multiply %[[Y2]], %[[Y2]]
// CHECK-NEXT:      stablehlo.add %{{.*}}, %[[H2]]
func.func @read_in_a_conditional_and_after(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %c12 = stablehlo.constant dense<12> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<8x8xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %c12 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %y = stablehlo.sine %acc : tensor<8x8xf32>
    %h = stablehlo.multiply %y, %y : tensor<8x8xf32>
    %p = stablehlo.compare LT, %i, %c6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %a = "stablehlo.if"(%p) ({
      %d = stablehlo.dot_general %h, %acc, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      stablehlo.return %d : tensor<8x8xf32>
    }, {
      %n = stablehlo.negate %acc : tensor<8x8xf32>
      stablehlo.return %n : tensor<8x8xf32>
    }) : (tensor<i1>) -> tensor<8x8xf32>
    %after = stablehlo.add %a, %h : tensor<8x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %after : tensor<i32>, tensor<8x8xf32>
  }
  return %r#1 : tensor<8x8xf32>
}

// A tensor a product computes stays as it is; so does a conditional outside a loop.
// CHECK-LABEL: func.func @product_and_no_loop
// CHECK-NOT:     optimization_barrier
func.func @product_and_no_loop(%p: tensor<i1>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = "stablehlo.if"(%p) ({
    %n = stablehlo.negate %y : tensor<8x8xf32>
    stablehlo.return %n : tensor<8x8xf32>
  }, {
    stablehlo.return %x : tensor<8x8xf32>
  }) : (tensor<i1>) -> tensor<8x8xf32>
  %z = stablehlo.add %a, %y : tensor<8x8xf32>
  return %z : tensor<8x8xf32>
}
