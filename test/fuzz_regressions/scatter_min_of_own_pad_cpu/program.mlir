module {
  func.func @main(%arg0: tensor<7xf32>) -> tensor<7xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<7xi1>, tensor<7xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<7xf32>, tensor<f32>) -> tensor<7xf32>
    %4 = stablehlo.convert %3 : (tensor<7xf32>) -> tensor<7xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.pad %4, %c, low = [0], high = [1], interior = [0] : (tensor<7xi32>, tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.reshape %5 : (tensor<8xi32>) -> tensor<8x1xi32>
    %c_2 = stablehlo.constant dense<9> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %8 = stablehlo.remainder %6, %7 : tensor<8x1xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %9 = stablehlo.clamp %c_3, %8, %c_4 : (tensor<i32>, tensor<8x1xi32>, tensor<i32>) -> tensor<8x1xi32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.pad %arg0, %cst_5, low = [0], high = [1], interior = [0] : (tensor<7xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = "stablehlo.scatter"(%arg0, %9, %10) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %12 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      stablehlo.return %12 : tensor<f32>
    }) : (tensor<7xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<7xf32>
    return %11 : tensor<7xf32>
  }
}
