// RUN: shlo-opt --shlo-fence-reduced-gathers %s | filecheck %s
// RUN: shlo-opt --shlo-fence-reduced-gathers --shlo-fence-reduced-gathers %s | filecheck %s

// Gathered rows added to their array and summed over both dimensions (IREE 3.13's Vulkan
// SubgroupReduce dispatch summed garbage): the gather is read from behind a fusion barrier.
// CHECK-LABEL: func.func @sum_of_rows
// CHECK:         %[[G:.*]] = "stablehlo.gather"
// CHECK-NEXT:    %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[G]]
// CHECK-NEXT:    stablehlo.add %[[B]], %arg0
// CHECK-NOT:     compute_barrier
func.func @sum_of_rows(%x: tensor<8x16xf32>, %i: tensor<8x1xi32>) -> tensor<f32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %a = stablehlo.add %g, %x : tensor<8x16xf32>
  %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
  return %s : tensor<f32>
}

// Through a convert, a transpose and a multiply, reduced over dimensions 1 and 2 of the
// transposed value: the gathered dimension 0 lies at 1 after the transpose, so fenced.
// CHECK-LABEL: func.func @through_a_transpose
// CHECK:         %[[G:.*]] = "stablehlo.gather"
// CHECK-NEXT:    %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[G]]
// CHECK-NEXT:    stablehlo.convert %[[B]]
func.func @through_a_transpose(%x: tensor<8x4x2xf16>, %i: tensor<8x1xi32>, %y: tensor<4x8x2xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4, 2>}> : (tensor<8x4x2xf16>, tensor<8x1xi32>) -> tensor<8x4x2xf16>
  %c = stablehlo.convert %g : (tensor<8x4x2xf16>) -> tensor<8x4x2xf32>
  %t = stablehlo.transpose %c, dims = [1, 0, 2] : (tensor<8x4x2xf32>) -> tensor<4x8x2xf32>
  %m = stablehlo.multiply %t, %y : tensor<4x8x2xf32>
  %s = stablehlo.reduce(%m init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x8x2xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// Left alone: a reduce over one dimension; a reduce over the gathered slices' own dimensions
// only (dimensions 1 and 2); a gather read through a broadcast.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compute_barrier
func.func @left_alone(%x: tensor<8x16xf32>, %i: tensor<8x1xi32>, %z: tensor<8x4x2xf32>)
    -> (tensor<16xf32>, tensor<8xf32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %a = stablehlo.add %g, %x : tensor<8x16xf32>
  %r = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %h = "stablehlo.gather"(%z, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4, 2>}> : (tensor<8x4x2xf32>, tensor<8x1xi32>) -> tensor<8x4x2xf32>
  %b = stablehlo.add %h, %z : tensor<8x4x2xf32>
  %s = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x4x2xf32>, tensor<f32>) -> tensor<8xf32>
  %k = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<8x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  %w = stablehlo.broadcast_in_dim %k, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16x2xf32>
  %u = stablehlo.reduce(%w init: %zero) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x16x2xf32>, tensor<f32>) -> tensor<f32>
  return %r, %s, %u : tensor<16xf32>, tensor<8xf32>, tensor<f32>
}
