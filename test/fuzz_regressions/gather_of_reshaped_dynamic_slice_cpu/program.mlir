module {
  func.func @main(%arg0: tensor<3xi16>) -> (tensor<1x1x1x1xi16>, tensor<1x1x1x1xi16>) {
    %0 = stablehlo.convert %arg0 : (tensor<3xi16>) -> tensor<3xi32>
    %1 = stablehlo.slice %0 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %3 = stablehlo.remainder %2, %c : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg0, %3, sizes = [1] : (tensor<3xi16>, tensor<i32>) -> tensor<1xi16>
    %5 = stablehlo.reshape %4 : (tensor<1xi16>) -> tensor<1x1x1x1xi16>
    %6 = stablehlo.convert %arg0 : (tensor<3xi16>) -> tensor<3xi32>
    %7 = stablehlo.slice %6 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %8 = stablehlo.reshape %7 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %10 = stablehlo.remainder %8, %9 : tensor<1x1xi32>
    %11 = "stablehlo.gather"(%5, %10) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3], collapsed_slice_dims = [3], start_index_map = [3], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>}> : (tensor<1x1x1x1xi16>, tensor<1x1xi32>) -> tensor<1x1x1x1xi16>
    return %11, %5 : tensor<1x1x1x1xi16>, tensor<1x1x1x1xi16>
  }
}
