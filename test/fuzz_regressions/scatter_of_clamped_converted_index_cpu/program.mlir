module {
  func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<1x1xf32>) -> tensor<1x1xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<2xi1>, tensor<2xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %4 = stablehlo.convert %3 : (tensor<2xf32>) -> tensor<2xi32>
    %5 = stablehlo.slice %4 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %6 = stablehlo.reshape %5 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %8 = stablehlo.remainder %6, %7 : tensor<1x1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.clamp %c_2, %8, %c_3 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %10 = stablehlo.slice %arg0 [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %11 = stablehlo.reshape %10 : (tensor<1xf32>) -> tensor<1x1xf32>
    %12 = "stablehlo.scatter"(%arg1, %9, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %13 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<1x1xf32>, tensor<1x1xi32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    return %12 : tensor<1x1xf32>
  }
}
