module {
  func.func @main(%arg0: tensor<3x1xi8>) -> tensor<3x1xi8> {
    %0 = stablehlo.convert %arg0 : (tensor<3x1xi8>) -> tensor<3x1xi32>
    %1 = stablehlo.reshape %0 : (tensor<3x1xi32>) -> tensor<3xi32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %5 = stablehlo.remainder %3, %4 : tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %6 = stablehlo.clamp %c_0, %5, %c_1 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %7 = stablehlo.reshape %arg0 : (tensor<3x1xi8>) -> tensor<3xi8>
    %8 = stablehlo.slice %7 [0:1] : (tensor<3xi8>) -> tensor<1xi8>
    %9 = stablehlo.reshape %8 : (tensor<1xi8>) -> tensor<1x1xi8>
    %10 = "stablehlo.scatter"(%arg0, %6, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i8>, %arg2: tensor<i8>):
      %11 = stablehlo.minimum %arg1, %arg2 : tensor<i8>
      stablehlo.return %11 : tensor<i8>
    }) : (tensor<3x1xi8>, tensor<1x1xi32>, tensor<1x1xi8>) -> tensor<3x1xi8>
    return %10 : tensor<3x1xi8>
  }
}
