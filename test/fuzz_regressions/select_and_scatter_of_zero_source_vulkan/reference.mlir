module {
  func.func @main(%arg0: tensor<0xf64>, %arg1: tensor<512x257xi64>) -> tensor<512x257xi64> {
    %0 = stablehlo.convert %arg1 : (tensor<512x257xi64>) -> tensor<512x257xi32>
    %c = stablehlo.constant dense<-63> : tensor<i32>
    %c_0 = stablehlo.constant dense<63> : tensor<i32>
    %1 = stablehlo.clamp %c, %0, %c_0 : (tensor<i32>, tensor<512x257xi32>, tensor<i32>) -> tensor<512x257xi32>
    %2 = stablehlo.iota dim = 0 : tensor<131584xi32>
    %3 = stablehlo.reshape %2 : (tensor<131584xi32>) -> tensor<512x257xi32>
    %c_1 = stablehlo.constant dense<131584> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<512x257xi32>
    %5 = stablehlo.multiply %1, %4 : tensor<512x257xi32>
    %6 = stablehlo.add %5, %3 : tensor<512x257xi32>
    %7 = stablehlo.convert %6 : (tensor<512x257xi32>) -> tensor<512x257xi64>
    %8 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<0xf64>, tensor<0xf64>) -> tensor<0xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<0xf64>
    %10 = stablehlo.select %8, %9, %arg0 : tensor<0xi1>, tensor<0xf64>
    %cst_2 = stablehlo.constant dense<-9.2233720368547758E+18> : tensor<f64>
    %cst_3 = stablehlo.constant dense<9.2233720368547748E+18> : tensor<f64>
    %11 = stablehlo.clamp %cst_2, %10, %cst_3 : (tensor<f64>, tensor<0xf64>, tensor<f64>) -> tensor<0xf64>
    %12 = stablehlo.convert %11 : (tensor<0xf64>) -> tensor<0xi64>
    %c_4 = stablehlo.constant dense<0> : tensor<i64>
    %13 = stablehlo.pad %12, %c_4, low = [0], high = [66048], interior = [0] : (tensor<0xi64>, tensor<i64>) -> tensor<66048xi64>
    %14 = stablehlo.reshape %13 : (tensor<66048xi64>) -> tensor<512x129xi64>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %15 = "stablehlo.select_and_scatter"(%7, %14, %c_5) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
      %16 = stablehlo.compare LE, %arg2, %arg3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
      %16 = stablehlo.add %arg2, %arg3 : tensor<i64>
      stablehlo.return %16 : tensor<i64>
    }) : (tensor<512x257xi64>, tensor<512x129xi64>, tensor<i64>) -> tensor<512x257xi64>
    return %15 : tensor<512x257xi64>
  }
}
