module {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<i1>, %arg2: tensor<256xi32>) -> tensor<5xi32> {
    %0 = stablehlo.slice %arg2 [230:235:2] : (tensor<256xi32>) -> tensor<3xi32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.remainder %arg0, %c : tensor<i32>
    %2 = stablehlo.dynamic_slice %0, %1, sizes = [3] : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.pad %4, %c_0, low = [0], high = [4], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<5xi32>
    %6 = stablehlo.reshape %5 : (tensor<5xi32>) -> tensor<5x1xi32>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %8 = stablehlo.remainder %6, %7 : tensor<5x1xi32>
    %9 = "stablehlo.gather"(%2, %8) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<3xi32>, tensor<5x1xi32>) -> tensor<5xi32>
    return %9 : tensor<5xi32>
  }
}
