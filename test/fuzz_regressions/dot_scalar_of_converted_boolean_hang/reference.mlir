module {
  func.func @main(%arg0: tensor<2x6x1xi1>, %arg1: tensor<1xf32>) -> tensor<2x1xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<2x6x1xi1>) -> tensor<2x6x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x6x1xf32>) -> tensor<12xf32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<12xf32>) -> tensor<1xf32>
    %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [] x [] : (tensor<1xf32>, tensor<1xf32>) -> tensor<1x1xf32>
    %4 = stablehlo.convert %arg0 : (tensor<2x6x1xi1>) -> tensor<2x6x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x6x1xi32>) -> tensor<12xi32>
    %6 = stablehlo.slice %5 [0:2] : (tensor<12xi32>) -> tensor<2xi32>
    %7 = stablehlo.reshape %6 : (tensor<2xi32>) -> tensor<2x1xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x1xi32>
    %9 = stablehlo.remainder %7, %8 : tensor<2x1xi32>
    %10 = "stablehlo.gather"(%3, %9) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<1x1xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
    return %10 : tensor<2x1xf32>
  }
}
