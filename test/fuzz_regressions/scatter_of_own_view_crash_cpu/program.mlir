module {
  func.func @main(%arg0: tensor<i64>, %arg1: tensor<1x1x2xi64>) -> tensor<1x1x2xi64> {
    %0 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.pad %0, %c, low = [0], high = [1], interior = [0] : (tensor<1xi64>, tensor<i64>) -> tensor<2xi64>
    %2 = stablehlo.reshape %1 : (tensor<2xi64>) -> tensor<1x1x2xi64>
    %3 = stablehlo.compare NE, %arg1, %2, SIGNED : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i64>) -> tensor<1xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.pad %4, %c_0, low = [0], high = [1], interior = [0] : (tensor<1xi64>, tensor<i64>) -> tensor<2xi64>
    %6 = stablehlo.reshape %5 : (tensor<2xi64>) -> tensor<1x1x2xi64>
    %7 = stablehlo.select %3, %6, %arg1 : tensor<1x1x2xi1>, tensor<1x1x2xi64>
    %8 = stablehlo.convert %7 : (tensor<1x1x2xi64>) -> tensor<1x1x2xi32>
    %9 = stablehlo.reshape %8 : (tensor<1x1x2xi32>) -> tensor<2xi32>
    %10 = stablehlo.slice %9 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %11 = stablehlo.reshape %10 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %13 = stablehlo.remainder %11, %12 : tensor<1x1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %14 = stablehlo.clamp %c_2, %13, %c_3 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %15 = stablehlo.reshape %7 : (tensor<1x1x2xi64>) -> tensor<2xi64>
    %16 = stablehlo.slice %15 [0:1] : (tensor<2xi64>) -> tensor<1xi64>
    %17 = stablehlo.reshape %16 : (tensor<1xi64>) -> tensor<1x1x1xi64>
    %18 = "stablehlo.scatter"(%7, %14, %17) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
      %19 = stablehlo.add %arg2, %arg3 : tensor<i64>
      stablehlo.return %19 : tensor<i64>
    }) : (tensor<1x1x2xi64>, tensor<1x1xi32>, tensor<1x1x1xi64>) -> tensor<1x1x2xi64>
    return %18 : tensor<1x1x2xi64>
  }
}
