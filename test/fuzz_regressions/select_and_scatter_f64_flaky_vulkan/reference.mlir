module {
  func.func @main(%arg0: tensor<1xf32>, %arg1: tensor<4x4xf64>) -> tensor<1xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<1xf32>) -> tensor<1xbf16>
    %1 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x4xf64>
    %3 = stablehlo.select %1, %2, %arg1 : tensor<4x4xi1>, tensor<4x4xf64>
    %cst_0 = stablehlo.constant dense<0xC1E0000000000000> : tensor<f64>
    %cst_1 = stablehlo.constant dense<0x41DFFFFFFFC00000> : tensor<f64>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<f64>, tensor<4x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %5 = stablehlo.convert %4 : (tensor<4x4xf64>) -> tensor<4x4xi32>
    %c = stablehlo.constant dense<-524288> : tensor<i32>
    %c_2 = stablehlo.constant dense<524288> : tensor<i32>
    %6 = stablehlo.clamp %c, %5, %c_2 : (tensor<i32>, tensor<4x4xi32>, tensor<i32>) -> tensor<4x4xi32>
    %7 = stablehlo.iota dim = 0 : tensor<16xi32>
    %8 = stablehlo.reshape %7 : (tensor<16xi32>) -> tensor<4x4xi32>
    %c_3 = stablehlo.constant dense<16> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %10 = stablehlo.multiply %6, %9 : tensor<4x4xi32>
    %11 = stablehlo.add %10, %8 : tensor<4x4xi32>
    %12 = stablehlo.convert %11 : (tensor<4x4xi32>) -> tensor<4x4xf64>
    %13 = stablehlo.convert %0 : (tensor<1xbf16>) -> tensor<1xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %14 = stablehlo.pad %13, %cst_4, low = [0], high = [7], interior = [0] : (tensor<1xf64>, tensor<f64>) -> tensor<8xf64>
    %15 = stablehlo.reshape %14 : (tensor<8xf64>) -> tensor<2x4xf64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %16 = "stablehlo.select_and_scatter"(%12, %15, %cst_5) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %22 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %22 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %22 = stablehlo.add %arg2, %arg3 : tensor<f64>
      stablehlo.return %22 : tensor<f64>
    }) : (tensor<4x4xf64>, tensor<2x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %17 = stablehlo.convert %16 : (tensor<4x4xf64>) -> tensor<4x4xbf16>
    %18 = stablehlo.reshape %17 : (tensor<4x4xbf16>) -> tensor<16xbf16>
    %19 = stablehlo.slice %18 [0:1] : (tensor<16xbf16>) -> tensor<1xbf16>
    %20 = stablehlo.power %0, %19 : tensor<1xbf16>
    %21 = stablehlo.convert %20 : (tensor<1xbf16>) -> tensor<1xf32>
    return %21 : tensor<1xf32>
  }
}
