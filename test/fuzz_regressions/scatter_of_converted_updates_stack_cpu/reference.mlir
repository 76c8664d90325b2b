module {
  func.func @main(%arg0: tensor<1x16384xi32>, %arg1: tensor<16384xui16>) -> tensor<1x16384xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<16384xui16>) -> tensor<16384xi32>
    %1 = stablehlo.slice %0 [0:1] : (tensor<16384xi32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %4 = stablehlo.remainder %2, %3 : tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.clamp %c_0, %4, %c_1 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %6 = stablehlo.convert %arg1 : (tensor<16384xui16>) -> tensor<16384xi32>
    %7 = stablehlo.reshape %6 : (tensor<16384xi32>) -> tensor<1x16384xi32>
    %8 = "stablehlo.scatter"(%arg0, %5, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %9 = stablehlo.add %arg2, %arg3 : tensor<i32>
      stablehlo.return %9 : tensor<i32>
    }) : (tensor<1x16384xi32>, tensor<1x1xi32>, tensor<1x16384xi32>) -> tensor<1x16384xi32>
    return %8 : tensor<1x16384xi32>
  }
}
