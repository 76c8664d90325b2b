// RUN: shlo-opt --shlo-signless-loop-carries %s | filecheck %s

// A loop whose body scatters into a carried ui8 tensor (shlo-split-long-reduce's chunk loop):
// the loop carries it as i8, bitcast where it starts, in both regions and after it. The
// carried index stays i32 and the unsigned argument the updates are sliced from stays ui8.
// CHECK-LABEL: func.func @scatter_into_carried_bytes
// CHECK:         %[[IN:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<5x8xui8>) -> tensor<5x8xi8>
// CHECK:         %[[L:.*]]:2 = stablehlo.while(%[[I:.*]] = %{{.*}}, %[[A:.*]] = %[[IN]]) : tensor<i32>, tensor<5x8xi8>
// CHECK:         cond
// CHECK:           stablehlo.bitcast_convert %[[A]] : (tensor<5x8xi8>) -> tensor<5x8xui8>
// CHECK:         do
// CHECK:           %[[U:.*]] = stablehlo.bitcast_convert %[[A]] : (tensor<5x8xi8>) -> tensor<5x8xui8>
// CHECK:           %[[S:.*]] = "stablehlo.scatter"(%[[U]],
// CHECK:           %[[OUT:.*]] = stablehlo.bitcast_convert %[[S]] : (tensor<5x8xui8>) -> tensor<5x8xi8>
// CHECK:           stablehlo.return %{{.*}}, %[[OUT]] : tensor<i32>, tensor<5x8xi8>
// CHECK:         %[[R:.*]] = stablehlo.bitcast_convert %[[L]]#1 : (tensor<5x8xi8>) -> tensor<5x8xui8>
// CHECK:         return %[[R]] : tensor<5x8xui8>
func.func @scatter_into_carried_bytes(%arg0: tensor<6x8xui8>, %idx: tensor<6x1xi32>) -> tensor<5x8xui8> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<ui8>
  %p = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<ui8>) -> tensor<5x8xui8>
  %r:2 = stablehlo.while(%i = %c0, %a = %p) : tensor<i32>, tensor<5x8xui8>
  cond {
    %b = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %b : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %ix = stablehlo.dynamic_slice %idx, %i, %c0, sizes = [2, 1] : (tensor<6x1xi32>, tensor<i32>, tensor<i32>) -> tensor<2x1xi32>
    %u = stablehlo.dynamic_slice %arg0, %i, %c0, sizes = [2, 8] : (tensor<6x8xui8>, tensor<i32>, tensor<i32>) -> tensor<2x8xui8>
    %s = "stablehlo.scatter"(%a, %ix, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
      ^bb0(%x: tensor<ui8>, %y: tensor<ui8>):
        %q = stablehlo.add %x, %y : tensor<ui8>
        stablehlo.return %q : tensor<ui8>
      }) : (tensor<5x8xui8>, tensor<2x1xi32>, tensor<2x8xui8>) -> tensor<5x8xui8>
    stablehlo.return %n, %s : tensor<i32>, tensor<5x8xui8>
  }
  return %r#1 : tensor<5x8xui8>
}

// A carried ui32 that the body only adds to (IREE compiles it), and a scatter into a value
// computed from the carried one (a pad): unchanged.
// CHECK-LABEL: func.func @no_scatter_into_the_carried_value
// CHECK-NOT:     bitcast_convert
// CHECK:         stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<4xui32>
// CHECK-NOT:     bitcast_convert
func.func @no_scatter_into_the_carried_value(%x: tensor<4xui32>, %idx: tensor<1x1xi32>) -> tensor<4xui32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<4xui32>
  cond {
    %b = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %b : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %p = stablehlo.pad %a, %z, low = [0], high = [1], interior = [0] : (tensor<4xui32>, tensor<ui32>) -> tensor<5xui32>
    %u = stablehlo.slice %a [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %s = "stablehlo.scatter"(%p, %idx, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
      ^bb0(%v: tensor<ui32>, %w: tensor<ui32>):
        %q = stablehlo.add %v, %w : tensor<ui32>
        stablehlo.return %q : tensor<ui32>
      }) : (tensor<5xui32>, tensor<1x1xi32>, tensor<1xui32>) -> tensor<5xui32>
    %t = stablehlo.slice %s [0:4] : (tensor<5xui32>) -> tensor<4xui32>
    %y = stablehlo.add %t, %a : tensor<4xui32>
    stablehlo.return %n, %y : tensor<i32>, tensor<4xui32>
  }
  return %r#1 : tensor<4xui32>
}
