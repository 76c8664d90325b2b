// RUN: shlo-opt --shlo-copy-updated-operands %s | filecheck %s

// A product updated in place and read by another op: the update gets a run-time copy,
// select(broadcast(true), y, 0) with `true` read through a barrier at the top of the
// function; the other reader keeps y.
// CHECK-LABEL: func.func @updated_and_read
// CHECK:         %[[T:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[T]] : tensor<i1>
// CHECK:         %[[Y:.*]] = stablehlo.dot_general
// CHECK:         %[[A:.*]] = stablehlo.abs %[[Y]]
// CHECK:         %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]], dims = [] : (tensor<i1>) -> tensor<8x8xi1>
// CHECK:         %[[S:.*]] = stablehlo.select %[[BB]], %[[Y]], %{{.*}} : tensor<8x8xi1>, tensor<8x8xf32>
// CHECK:         stablehlo.dynamic_update_slice %[[S]], %arg1, %arg2, %{{.*}}
func.func @updated_and_read(%x: tensor<8x4xf32>, %u: tensor<2x8xf32>, %i: tensor<i32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %y = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %a = stablehlo.abs %y : tensor<8x8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %d = stablehlo.dynamic_update_slice %y, %u, %i, %c0 : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  return %a, %d : tensor<8x8xf32>, tensor<8x8xf32>
}

// Sorts and scatters too, one run-time true per function; a value of constants alone
// (IREE cloned its dispatch wrongly) as well.
// CHECK-LABEL: func.func @sorted_and_scattered
// CHECK-COUNT-1: stablehlo.optimization_barrier
// CHECK:         %[[S:.*]] = stablehlo.select
// CHECK:         stablehlo.sort"(%[[S]])
// CHECK:         %[[C:.*]] = stablehlo.select
// CHECK:         stablehlo.scatter"(%[[C]],
func.func @sorted_and_scattered(%x: tensor<16xi32>, %idx: tensor<3x1xi32>, %v: tensor<3xi32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>) {
  %y = stablehlo.add %x, %x : tensor<16xi32>
  %s = "stablehlo.sort"(%y) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<16xi32>) -> tensor<16xi32>
  %io = stablehlo.iota dim = 0 : tensor<16xi32>
  %sc = "stablehlo.scatter"(%io, %idx, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }) : (tensor<16xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<16xi32>
  return %y, %s, %io, %sc : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>
}

// Left alone: a value only the update reads, an argument, a constant.
// CHECK-LABEL: func.func @not_copied
// CHECK-NOT:     stablehlo.select
func.func @not_copied(%x: tensor<16xi32>, %u: tensor<2xi32>, %i: tensor<i32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>) {
  %y = stablehlo.add %x, %x : tensor<16xi32>
  %d = stablehlo.dynamic_update_slice %y, %u, %i : (tensor<16xi32>, tensor<2xi32>, tensor<i32>) -> tensor<16xi32>
  %e = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<16xi32>, tensor<2xi32>, tensor<i32>) -> tensor<16xi32>
  %c = stablehlo.constant dense<3> : tensor<16xi32>
  %f = stablehlo.dynamic_update_slice %c, %u, %i : (tensor<16xi32>, tensor<2xi32>, tensor<i32>) -> tensor<16xi32>
  return %d, %x, %e, %c, %f : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>
}
