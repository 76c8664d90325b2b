module {
  func.func @main(%arg0: tensor<i64>, %arg1: tensor<2x5xf32>) -> (tensor<2x5xf64>, tensor<2x5xf64>) {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %4 = stablehlo.remainder %2, %3 : tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %5 = stablehlo.clamp %c_0, %4, %c_1 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %6 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<f32>
    %7 = stablehlo.reshape %6 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.pad %7, %cst, low = [0], high = [1], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<2xf32>
    %9 = stablehlo.reshape %8 : (tensor<2xf32>) -> tensor<1x2xf32>
    %10 = stablehlo.transpose %arg1, dims = [0, 1] : (tensor<2x5xf32>) -> tensor<2x5xf32>
    %11 = "stablehlo.scatter"(%10, %5, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %14 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<2x5xf32>, tensor<1x1xi32>, tensor<1x2xf32>) -> tensor<2x5xf32>
    %12 = stablehlo.convert %11 : (tensor<2x5xf32>) -> tensor<2x5xf64>
    %c_2 = stablehlo.constant dense<true> : tensor<i1>
    %13 = "stablehlo.if"(%c_2) ({
      %14 = stablehlo.add %12, %12 : tensor<2x5xf64>
      stablehlo.return %14 : tensor<2x5xf64>
    }, {
      %14 = stablehlo.add %12, %12 : tensor<2x5xf64>
      stablehlo.return %14 : tensor<2x5xf64>
    }) : (tensor<i1>) -> tensor<2x5xf64>
    return %13, %12 : tensor<2x5xf64>, tensor<2x5xf64>
  }
}
