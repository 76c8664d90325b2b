// RUN: shlo-opt --shlo-copy-rotated-loop-carries %s | filecheck %s

// jax.random's threefry loop hands its keys round (here places 2 and 4 take each other's
// values): each is returned as a run-time copy, select(broadcast(true), key, 0), the true read
// through a barrier at the function's top. The counter, the computed value and the values
// returned in their own places stay.
// CHECK-LABEL: func.func @rotated_keys
// CHECK:         %[[C:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK:         %[[TRUE:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<i1>
// CHECK:         stablehlo.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}, %[[P:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}}, %[[W:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
// CHECK:         do {
// CHECK:           %[[J:.*]] = stablehlo.add %[[I]]
// CHECK:           %[[Y:.*]] = stablehlo.add %[[V]], %[[P]]
// CHECK:           %[[T1:.*]] = stablehlo.broadcast_in_dim %[[TRUE]], dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK:           %[[W1:.*]] = stablehlo.select %[[T1]], %[[W]], %{{.*}} : tensor<4xi1>, tensor<4xui32>
// CHECK:           %[[T2:.*]] = stablehlo.broadcast_in_dim %[[TRUE]], dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK:           %[[P1:.*]] = stablehlo.select %[[T2]], %[[P]], %{{.*}} : tensor<4xi1>, tensor<4xui32>
// CHECK:           stablehlo.return %[[J]], %[[Y]], %[[W1]], %[[Q]], %[[P1]], %[[S]] :
func.func @rotated_keys(%x: tensor<4xui32>, %a: tensor<ui32>, %k: tensor<4xui32>) -> tensor<4xui32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<ui32>) -> tensor<4xui32>
  %r:6 = stablehlo.while(%i = %c0, %v = %x, %p = %b, %q = %a, %w = %k, %s = %k) : tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  cond {
    %t = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %y = stablehlo.add %v, %p : tensor<4xui32>
    stablehlo.return %j, %y, %w, %q, %p, %s : tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  return %r#1 : tensor<4xui32>
}

// A scalar handed round is copied too; values of dynamic shape stay as they are.
// CHECK-LABEL: func.func @swapped_scalars_and_dynamic
// CHECK:         do {
// CHECK:           %[[B:.*]] = stablehlo.select %{{.*}}, %[[Y:.*]], %{{.*}} : tensor<i1>, tensor<f32>
// CHECK:           %[[A:.*]] = stablehlo.select %{{.*}}, %[[X:.*]], %{{.*}} : tensor<i1>, tensor<f32>
// CHECK-NOT:       stablehlo.select
// CHECK:           stablehlo.return %{{.*}}, %[[B]], %[[A]], %{{.*}}, %{{.*}} : tensor<i32>, tensor<f32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>
func.func @swapped_scalars_and_dynamic(%x: tensor<f32>, %y: tensor<f32>, %d: tensor<?xf32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:5 = stablehlo.while(%i = %c0, %a = %x, %b = %y, %e = %d, %f = %d) : tensor<i32>, tensor<f32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>
  cond {
    %t = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %b, %a, %f, %e : tensor<i32>, tensor<f32>, tensor<f32>, tensor<?xf32>, tensor<?xf32>
  }
  return %r#1 : tensor<f32>
}
