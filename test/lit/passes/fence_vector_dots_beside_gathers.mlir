// RUN: shlo-opt --shlo-fence-vector-dots-beside-gathers %s | filecheck %s
// RUN: shlo-opt --shlo-fence-vector-dots-beside-gathers --shlo-fence-vector-dots-beside-gathers %s | filecheck %s

// A vector-matrix product added to a reversed row, through a tanh: the product is read from
// behind a fusion barrier (IREE 3.13's Vulkan dispatch of both failed to compile).
// CHECK-LABEL: func.func @plus_reversed
// CHECK:         %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT:    %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[D]]
// CHECK-NEXT:    stablehlo.tanh %[[B]]
// CHECK-NOT:     compute_barrier
func.func @plus_reversed(%x: tensor<512xf32>, %u: tensor<512x512xf32>, %y: tensor<512xf32>) -> tensor<512xf32> {
  %d = stablehlo.dot_general %x, %u, contracting_dims = [0] x [0] : (tensor<512xf32>, tensor<512x512xf32>) -> tensor<512xf32>
  %t = stablehlo.tanh %d : tensor<512xf32>
  %r = stablehlo.reverse %y, dims = [0] : tensor<512xf32>
  %h = stablehlo.multiply %r, %r : tensor<512xf32>
  %s = stablehlo.add %t, %h : tensor<512xf32>
  return %s : tensor<512xf32>
}

// In a loop body, a matrix-vector product added to a row sliced from a gathered loop
// operand: the walk goes from the body's argument to the loop's operand, so the product is
// fenced (an optimization_barrier in a loop body).
// CHECK-LABEL: func.func @in_a_loop
// CHECK:         stablehlo.while
// CHECK:         %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT:    stablehlo.optimization_barrier %[[D]]
func.func @in_a_loop(%u: tensor<64x64xf32>, %x: tensor<8x64xf32>, %i: tensor<8x1xi32>) -> tensor<64xf32> {
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<8x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %eight = stablehlo.constant dense<8> : tensor<i32>
  %h0 = stablehlo.constant dense<0.0> : tensor<64xf32>
  %r:3 = stablehlo.while(%k = %zero, %h = %h0, %rows = %g) : tensor<i32>, tensor<64xf32>, tensor<8x64xf32>
    cond {
      %c = stablehlo.compare LT, %k, %eight : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %row = stablehlo.dynamic_slice %rows, %k, %zero, sizes = [1, 64] : (tensor<8x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
      %flat = stablehlo.reshape %row : (tensor<1x64xf32>) -> tensor<64xf32>
      %d = stablehlo.dot_general %u, %h, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
      %s = stablehlo.add %d, %flat : tensor<64xf32>
      %n = stablehlo.add %k, %one : tensor<i32>
      stablehlo.return %n, %s, %rows : tensor<i32>, tensor<64xf32>, tensor<8x64xf32>
    }
  return %r#1 : tensor<64xf32>
}

// Left alone: a matrix product added to a reversed value, and a vector product added to a
// plain argument.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compute_barrier
// CHECK-NOT:     optimization_barrier
func.func @left_alone(%x: tensor<2x512xf32>, %u: tensor<512x512xf32>, %v: tensor<512xf32>)
    -> (tensor<2x512xf32>, tensor<512xf32>) {
  %m = stablehlo.dot_general %x, %u, contracting_dims = [1] x [0] : (tensor<2x512xf32>, tensor<512x512xf32>) -> tensor<2x512xf32>
  %r = stablehlo.reverse %x, dims = [1] : tensor<2x512xf32>
  %a = stablehlo.add %m, %r : tensor<2x512xf32>
  %d = stablehlo.dot_general %v, %u, contracting_dims = [0] x [0] : (tensor<512xf32>, tensor<512x512xf32>) -> tensor<512xf32>
  %b = stablehlo.add %d, %v : tensor<512xf32>
  return %a, %b : tensor<2x512xf32>, tensor<512xf32>
}
