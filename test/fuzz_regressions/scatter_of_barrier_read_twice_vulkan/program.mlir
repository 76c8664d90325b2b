module {
  func.func @main(%arg0: tensor<2xi64>) -> tensor<2xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<2xi64>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.pad %0, %c, low = [0], high = [1], interior = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
    %2 = stablehlo.reshape %1 : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %4 = stablehlo.remainder %2, %3 : tensor<3x1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %5 = stablehlo.clamp %c_1, %4, %c_2 : (tensor<i32>, tensor<3x1xi32>, tensor<i32>) -> tensor<3x1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %6 = stablehlo.pad %arg0, %c_3, low = [0], high = [1], interior = [0] : (tensor<2xi64>, tensor<i64>) -> tensor<3xi64>
    %7 = "stablehlo.scatter"(%arg0, %5, %6) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %8 = stablehlo.minimum %arg1, %arg2 : tensor<i64>
      stablehlo.return %8 : tensor<i64>
    }) : (tensor<2xi64>, tensor<3x1xi32>, tensor<3xi64>) -> tensor<2xi64>
    return %7 : tensor<2xi64>
  }
}
