// RUN: shlo-opt --shlo-select-loop-conditionals %s | filecheck %s

// A case in a loop body whose branches are cheap becomes selects: the last branch for an
// index out of range, each other branch where the index equals its number.
// CHECK-LABEL: func.func @case_in_a_loop
// CHECK:         stablehlo.while
// CHECK-NOT:       stablehlo.case
// CHECK-DAG:       %[[A:.*]] = stablehlo.add {{.*}} : tensor<16xf32>
// CHECK-DAG:       %[[N:.*]] = stablehlo.negate
// CHECK-DAG:       %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:           %[[E:.*]] = stablehlo.compare EQ, %{{.*}}, %[[C0]]
// CHECK:           stablehlo.select %[[E]], %[[A]], %[[N]]
func.func @case_in_a_loop(%x: tensor<16xf32>, %k: tensor<i32>) -> tensor<16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %b = "stablehlo.case"(%k) ({
      %a = stablehlo.add %v, %v : tensor<16xf32>
      stablehlo.return %a : tensor<16xf32>
    }, {
      %q = stablehlo.negate %v : tensor<16xf32>
      stablehlo.return %q : tensor<16xf32>
    }) : (tensor<i32>) -> tensor<16xf32>
    stablehlo.return %n, %b : tensor<i32>, tensor<16xf32>
  }
  return %r#1 : tensor<16xf32>
}

// Kept: an integer division (a branch not taken may divide by zero), a product, and any
// conditional outside loops.
// CHECK-LABEL: func.func @kept
// CHECK:         stablehlo.while
// CHECK:           "stablehlo.if"
// CHECK:           stablehlo.divide
// CHECK:           "stablehlo.if"
// CHECK:           stablehlo.dot_general
// CHECK:         "stablehlo.if"
func.func @kept(%x: tensor<16xi32>, %m: tensor<4x4xf32>, %p: tensor<i1>) -> (tensor<16xi32>, tensor<4x4xf32>, tensor<16xi32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %w = %m) : tensor<i32>, tensor<16xi32>, tensor<4x4xf32>
  cond {
    %q = stablehlo.compare LT, %i, %c4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %q : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %d = "stablehlo.if"(%p) ({
      %e = stablehlo.divide %v, %v : tensor<16xi32>
      stablehlo.return %e : tensor<16xi32>
    }, {
      stablehlo.return %v : tensor<16xi32>
    }) : (tensor<i1>) -> tensor<16xi32>
    %g = "stablehlo.if"(%p) ({
      %h = stablehlo.dot_general %w, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      stablehlo.return %h : tensor<4x4xf32>
    }, {
      stablehlo.return %w : tensor<4x4xf32>
    }) : (tensor<i1>) -> tensor<4x4xf32>
    stablehlo.return %n, %d, %g : tensor<i32>, tensor<16xi32>, tensor<4x4xf32>
  }
  %o = "stablehlo.if"(%p) ({
    %t = stablehlo.add %x, %x : tensor<16xi32>
    stablehlo.return %t : tensor<16xi32>
  }, {
    stablehlo.return %x : tensor<16xi32>
  }) : (tensor<i1>) -> tensor<16xi32>
  return %r#1, %r#2, %o : tensor<16xi32>, tensor<4x4xf32>, tensor<16xi32>
}
