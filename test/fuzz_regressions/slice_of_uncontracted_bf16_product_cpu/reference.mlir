module {
  func.func @main(%arg0: tensor<16384xf32>) -> (tensor<16384xf32>, tensor<16384xf32>) {
    %0 = stablehlo.convert %arg0 : (tensor<16384xf32>) -> tensor<16384xbf16>
    %1 = stablehlo.dot_general %0, %0, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<16384xbf16>
    %3 = stablehlo.compare EQ, %1, %2, FLOAT : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xi1>
    %4 = stablehlo.select %3, %2, %1 : tensor<16384xi1>, tensor<16384xbf16>
    %5 = stablehlo.iota dim = 0 : tensor<1x1xi32>
    %6 = stablehlo.reverse %5, dims = [0] : tensor<1x1xi32>
    %c = stablehlo.constant dense<16386> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %8 = stablehlo.remainder %6, %7 : tensor<1x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<16383> : tensor<i32>
    %9 = stablehlo.clamp %c_0, %8, %c_1 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %10 = stablehlo.slice %4 [0:1] : (tensor<16384xbf16>) -> tensor<1xbf16>
    %11 = stablehlo.transpose %0, dims = [0] : (tensor<16384xbf16>) -> tensor<16384xbf16>
    %12 = "stablehlo.scatter"(%11, %9, %10) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %19 = stablehlo.minimum %arg1, %arg2 : tensor<bf16>
      stablehlo.return %19 : tensor<bf16>
    }) : (tensor<16384xbf16>, tensor<1x1xi32>, tensor<1xbf16>) -> tensor<16384xbf16>
    %13 = stablehlo.compare NE, %4, %4, FLOAT : (tensor<16384xbf16>, tensor<16384xbf16>) -> tensor<16384xi1>
    %14 = stablehlo.abs %4 : tensor<16384xbf16>
    %15 = stablehlo.select %13, %14, %4 : tensor<16384xi1>, tensor<16384xbf16>
    %16 = "stablehlo.sort"(%15) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %19 = stablehlo.bitcast_convert %arg1 : (tensor<bf16>) -> tensor<i16>
      %c_2 = stablehlo.constant dense<15> : tensor<i16>
      %20 = stablehlo.shift_right_arithmetic %19, %c_2 : tensor<i16>
      %c_3 = stablehlo.constant dense<32767> : tensor<i16>
      %21 = stablehlo.and %20, %c_3 : tensor<i16>
      %22 = stablehlo.xor %19, %21 : tensor<i16>
      %23 = stablehlo.bitcast_convert %arg2 : (tensor<bf16>) -> tensor<i16>
      %c_4 = stablehlo.constant dense<15> : tensor<i16>
      %24 = stablehlo.shift_right_arithmetic %23, %c_4 : tensor<i16>
      %c_5 = stablehlo.constant dense<32767> : tensor<i16>
      %25 = stablehlo.and %24, %c_5 : tensor<i16>
      %26 = stablehlo.xor %23, %25 : tensor<i16>
      %27 = stablehlo.compare GT, %22, %26, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    }) : (tensor<16384xbf16>) -> tensor<16384xbf16>
    %17 = stablehlo.convert %12 : (tensor<16384xbf16>) -> tensor<16384xf32>
    %18 = stablehlo.convert %16 : (tensor<16384xbf16>) -> tensor<16384xf32>
    return %17, %18 : tensor<16384xf32>, tensor<16384xf32>
  }
}
