module {
  func.func @main(%arg0: tensor<1x2xf64>) -> tensor<2x2xf64> {
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<1x2xf64>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xi1>
    %2 = stablehlo.select %1, %0, %arg0 : tensor<1x2xi1>, tensor<1x2xf64>
    %3 = "stablehlo.sort"(%2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %5 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }) : (tensor<1x2xf64>) -> tensor<1x2xf64>
    %cst_0 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %4 = "stablehlo.reduce_window"(%3, %cst_0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %5 = stablehlo.minimum %arg1, %arg2 : tensor<f64>
      stablehlo.return %5 : tensor<f64>
    }) : (tensor<1x2xf64>, tensor<f64>) -> tensor<2x2xf64>
    return %4 : tensor<2x2xf64>
  }
}
