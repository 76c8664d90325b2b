module {
  func.func @main(%arg0: tensor<f64>, %arg1: tensor<1x1xf64>) -> tensor<1x1xf64> {
    %0 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<1x1xf64>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<1x1xi1>, tensor<1x1xf64>
    %cst_0 = stablehlo.constant dense<0xC1E0000000000000> : tensor<f64>
    %cst_1 = stablehlo.constant dense<0x41DFFFFFFFC00000> : tensor<f64>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f64>, tensor<1x1xf64>, tensor<f64>) -> tensor<1x1xf64>
    %4 = stablehlo.convert %3 : (tensor<1x1xf64>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<-8388608> : tensor<i32>
    %c_2 = stablehlo.constant dense<8388608> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<1x1xi32>, tensor<i32>) -> tensor<1x1xi32>
    %6 = stablehlo.iota dim = 0 : tensor<1xi32>
    %7 = stablehlo.reshape %6 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<1x1xi32>
    %10 = stablehlo.add %9, %7 : tensor<1x1xi32>
    %11 = stablehlo.convert %10 : (tensor<1x1xi32>) -> tensor<1x1xf64>
    %12 = stablehlo.reshape %arg0 : (tensor<f64>) -> tensor<1xf64>
    %13 = stablehlo.reshape %12 : (tensor<1xf64>) -> tensor<1x1xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %14 = "stablehlo.select_and_scatter"(%11, %13, %cst_4) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %16 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %16 = stablehlo.add %arg2, %arg3 : tensor<f64>
      stablehlo.return %16 : tensor<f64>
    }) : (tensor<1x1xf64>, tensor<1x1xf64>, tensor<f64>) -> tensor<1x1xf64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %15 = "stablehlo.reduce_window"(%14, %cst_5) <{base_dilations = array<i64: 1, 1>, padding = dense<[[2, 0], [0, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 2, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %16 = stablehlo.add %arg2, %arg3 : tensor<f64>
      stablehlo.return %16 : tensor<f64>
    }) : (tensor<1x1xf64>, tensor<f64>) -> tensor<1x1xf64>
    return %15 : tensor<1x1xf64>
  }
}
