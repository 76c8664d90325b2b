module {
  func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<i1>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<f32>
    %1 = stablehlo.reshape %0 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.pad %1, %cst, low = [0], high = [1], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<2xf32>
    %3 = stablehlo.minimum %arg0, %2 : tensor<2xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %4 = "stablehlo.reduce_window"(%3, %cst_0) <{base_dilations = array<i64: 1>, padding = dense<[[0, 1]]> : tensor<1x2xi64>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 1>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %16 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }) : (tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.pad %6, %c, low = [0], high = [7], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
    %8 = stablehlo.reshape %7 : (tensor<8xi32>) -> tensor<8x1xi32>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %10 = stablehlo.remainder %8, %9 : tensor<8x1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %11 = stablehlo.clamp %c_2, %10, %c_3 : (tensor<i32>, tensor<8x1xi32>, tensor<i32>) -> tensor<8x1xi32>
    %12 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<f32>
    %13 = stablehlo.reshape %12 : (tensor<f32>) -> tensor<1xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.pad %13, %cst_4, low = [0], high = [7], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<8xf32>
    %15 = "stablehlo.scatter"(%4, %11, %14) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %16 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %16 : tensor<f32>
    }) : (tensor<3xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<3xf32>
    return %15 : tensor<3xf32>
  }
}
