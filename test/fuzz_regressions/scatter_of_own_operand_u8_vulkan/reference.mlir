module {
  func.func @main(%arg0: tensor<2x1x1x6xui8>) -> tensor<2x1x1x6xui8> {
    %0 = stablehlo.convert %arg0 : (tensor<2x1x1x6xui8>) -> tensor<2x1x1x6xi32>
    %1 = stablehlo.reshape %0 : (tensor<2x1x1x6xi32>) -> tensor<12xi32>
    %2 = stablehlo.slice %1 [0:8] : (tensor<12xi32>) -> tensor<8xi32>
    %3 = stablehlo.reshape %2 : (tensor<8xi32>) -> tensor<8x1xi32>
    %c = stablehlo.constant dense<4> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %5 = stablehlo.remainder %3, %4 : tensor<8x1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %6 = stablehlo.clamp %c_0, %5, %c_1 : (tensor<i32>, tensor<8x1xi32>, tensor<i32>) -> tensor<8x1xi32>
    %7 = stablehlo.reshape %arg0 : (tensor<2x1x1x6xui8>) -> tensor<12xui8>
    %c_2 = stablehlo.constant dense<0> : tensor<ui8>
    %8 = stablehlo.pad %7, %c_2, low = [0], high = [36], interior = [0] : (tensor<12xui8>, tensor<ui8>) -> tensor<48xui8>
    %9 = stablehlo.reshape %8 : (tensor<48xui8>) -> tensor<8x1x1x6xui8>
    %10 = "stablehlo.scatter"(%arg0, %6, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<ui8>, %arg2: tensor<ui8>):
      %11 = stablehlo.minimum %arg1, %arg2 : tensor<ui8>
      stablehlo.return %11 : tensor<ui8>
    }) : (tensor<2x1x1x6xui8>, tensor<8x1xi32>, tensor<8x1x1x6xui8>) -> tensor<2x1x1x6xui8>
    return %10 : tensor<2x1x1x6xui8>
  }
}
