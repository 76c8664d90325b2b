module {
  func.func @main(%arg0: tensor<16384xbf16>) -> (tensor<16384xbf16>, tensor<16384xbf16>) {
    %0 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<16384xbf16>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xi1>
    %3 = stablehlo.select %2, %1, %0 : tensor<16384xi1>, tensor<16384xbf16>
    %4 = stablehlo.iota dim = 0 : tensor<1x1xi32>
    %5 = stablehlo.reverse %4, dims = [0] : tensor<1x1xi32>
    %c = stablehlo.constant dense<16386> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %7 = stablehlo.remainder %5, %6 : tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<16383> : tensor<i32>
    %8 = stablehlo.clamp %c_0, %7, %c_1 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %9 = stablehlo.slice %3 [0:1] : (tensor<16384xbf16>) -> tensor<1xbf16>
    %10 = "stablehlo.scatter"(%arg0, %8, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %15 = stablehlo.minimum %arg1, %arg2 : tensor<bf16>
      stablehlo.return %15 : tensor<bf16>
    }) : (tensor<16384xbf16>, tensor<1x1xi32>, tensor<1xbf16>) -> tensor<16384xbf16>
    %11 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xi1>
    %12 = stablehlo.abs %3 : tensor<16384xbf16>
    %13 = stablehlo.select %11, %12, %3 : tensor<16384xi1>, tensor<16384xbf16>
    %14 = "stablehlo.sort"(%13) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %15 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    }) : (tensor<16384xbf16>) -> tensor<16384xbf16>
    return %10, %14 : tensor<16384xbf16>, tensor<16384xbf16>
  }
}
