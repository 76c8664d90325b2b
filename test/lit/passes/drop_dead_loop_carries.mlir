// RUN: shlo-opt --shlo-drop-dead-loop-carries %s | filecheck %s

// jax's fori_loop as a scan: the second counter's result goes unread, and only the body
// reads it, to count it: the loop is rebuilt without it.
// CHECK-LABEL: func.func @unread_counter
// CHECK:         %[[L:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %arg0) : tensor<i32>, tensor<16xf32>
// CHECK:           stablehlo.compare LT, %[[I]]
// CHECK:           %[[T:.*]] = stablehlo.tanh %[[V]]
// CHECK:           %[[N:.*]] = stablehlo.add %[[I]]
// CHECK-NEXT:      stablehlo.return %[[N]], %[[T]] : tensor<i32>, tensor<16xf32>
// CHECK:         return %[[L]]#1
func.func @unread_counter(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %j = %c0, %v = %x) : tensor<i32>, tensor<i32>, tensor<16xf32>
  cond {
    %p = stablehlo.compare LT, %i, %c2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %t = stablehlo.tanh %v : tensor<16xf32>
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %m = stablehlo.add %j, %c1 : tensor<i32>
    stablehlo.return %n, %m, %t : tensor<i32>, tensor<i32>, tensor<16xf32>
  }
  return %r#2 : tensor<16xf32>
}

// Kept: a value read after the loop (%a), one its condition reads (%b), one a live value is
// computed from (%c feeds %v), one a custom call reads (%d); dropped: %e, computed from %e
// and %c only.
// CHECK-LABEL: func.func @needed_values
// CHECK:         stablehlo.while(%{{.*}} = %arg0, %{{.*}} = %arg1, %{{.*}} = %arg2, %{{.*}} = %arg3, %{{.*}} = %arg5) : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<16xf32>
// CHECK:           stablehlo.custom_call @observe
// CHECK-NOT:       stablehlo.multiply
func.func @needed_values(%a0: tensor<i32>, %b0: tensor<i32>, %c0: tensor<i32>, %d0: tensor<i32>,
                         %e0: tensor<i32>, %x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:6 = stablehlo.while(%a = %a0, %b = %b0, %c = %c0, %d = %d0, %e = %e0, %v = %x) : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<16xf32>
  cond {
    %p = stablehlo.compare LT, %b, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %na = stablehlo.add %a, %one : tensor<i32>
    %nb = stablehlo.add %b, %one : tensor<i32>
    %cf = stablehlo.convert %c : (tensor<i32>) -> tensor<f32>
    %cv = stablehlo.broadcast_in_dim %cf, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %nv = stablehlo.add %v, %cv : tensor<16xf32>
    stablehlo.custom_call @observe(%d) {has_side_effect = true} : (tensor<i32>) -> ()
    %ne = stablehlo.multiply %e, %c : tensor<i32>
    stablehlo.return %na, %nb, %c, %d, %ne, %nv : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<16xf32>
  }
  return %r#0, %r#5 : tensor<i32>, tensor<16xf32>
}
