// RUN: shlo-opt --shlo-barrier-loop-captures %s | filecheck %s

// A computed static tensor the loop reads from outside goes through a fusion barrier before the
// loop, and the loop reads the barrier's result; constants, arguments, scalars and values
// defined inside the loop stay as they are.
// CHECK-LABEL: func.func @gather_read_in_a_loop
// CHECK:         %[[G:.*]] = "stablehlo.gather"
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[G]] : tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK:         stablehlo.while
// CHECK:           stablehlo.dynamic_slice %[[B]]
// CHECK:           stablehlo.add %{{.*}}, %arg0 : tensor<4x1xf32>
// CHECK-NOT:     compute_barrier
func.func @gather_read_in_a_loop(%b: tensor<4x1xf32>, %idx: tensor<4x1xi32>, %s: tensor<i64>) -> tensor<4x1xf32> {
  %g = "stablehlo.gather"(%b, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x1xf32>, tensor<4x1xi32>) -> tensor<4x1xf32>
  %n = stablehlo.add %s, %s : tensor<i64>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %z = stablehlo.constant dense<0.0> : tensor<4x1xf32>
  %r:2 = stablehlo.while(%i = %c0, %x = %z) : tensor<i64>, tensor<4x1xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %next = stablehlo.add %i, %c1 : tensor<i64>
    %y = stablehlo.dynamic_slice %g, %i, %c0, sizes = [1, 1] : (tensor<4x1xf32>, tensor<i64>, tensor<i64>) -> tensor<1x1xf32>
    %w = stablehlo.broadcast_in_dim %y, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<4x1xf32>
    %u = stablehlo.add %w, %b : tensor<4x1xf32>
    %v = stablehlo.add %x, %u : tensor<4x1xf32>
    stablehlo.return %next, %v : tensor<i64>, tensor<4x1xf32>
  }
  return %r#1 : tensor<4x1xf32>
}
