func.func @main(%x: tensor<4x16xf32>, %i: tensor<5x1xi32>) -> tensor<5x1xf32> {
  %a = stablehlo.slice %x [1:2:1, 10:15:2] : (tensor<4x16xf32>) -> tensor<1x3xf32>
  %g = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<1x3xf32>, tensor<5x1xi32>) -> tensor<5x1xf32>
  return %g : tensor<5x1xf32>
}
