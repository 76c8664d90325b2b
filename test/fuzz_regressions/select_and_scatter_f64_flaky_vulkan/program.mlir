module {
  func.func @main(%arg0: tensor<1xbf16>, %arg1: tensor<4x4xf64>) -> tensor<1xbf16> {
    %0 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x4xf64>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<4x4xi1>, tensor<4x4xf64>
    %cst_0 = stablehlo.constant dense<0xC1E0000000000000> : tensor<f64>
    %cst_1 = stablehlo.constant dense<0x41DFFFFFFFC00000> : tensor<f64>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f64>, tensor<4x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %4 = stablehlo.convert %3 : (tensor<4x4xf64>) -> tensor<4x4xi32>
    %c = stablehlo.constant dense<-524288> : tensor<i32>
    %c_2 = stablehlo.constant dense<524288> : tensor<i32>
    %5 = stablehlo.clamp %c, %4, %c_2 : (tensor<i32>, tensor<4x4xi32>, tensor<i32>) -> tensor<4x4xi32>
    %6 = stablehlo.iota dim = 0 : tensor<16xi32>
    %7 = stablehlo.reshape %6 : (tensor<16xi32>) -> tensor<4x4xi32>
    %c_3 = stablehlo.constant dense<16> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %9 = stablehlo.multiply %5, %8 : tensor<4x4xi32>
    %10 = stablehlo.add %9, %7 : tensor<4x4xi32>
    %11 = stablehlo.convert %10 : (tensor<4x4xi32>) -> tensor<4x4xf64>
    %12 = stablehlo.convert %arg0 : (tensor<1xbf16>) -> tensor<1xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %13 = stablehlo.pad %12, %cst_4, low = [0], high = [7], interior = [0] : (tensor<1xf64>, tensor<f64>) -> tensor<8xf64>
    %14 = stablehlo.reshape %13 : (tensor<8xf64>) -> tensor<2x4xf64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %15 = "stablehlo.select_and_scatter"(%11, %14, %cst_5) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %20 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %20 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f64>, %arg3: tensor<f64>):
      %20 = stablehlo.add %arg2, %arg3 : tensor<f64>
      stablehlo.return %20 : tensor<f64>
    }) : (tensor<4x4xf64>, tensor<2x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %16 = stablehlo.convert %15 : (tensor<4x4xf64>) -> tensor<4x4xbf16>
    %17 = stablehlo.reshape %16 : (tensor<4x4xbf16>) -> tensor<16xbf16>
    %18 = stablehlo.slice %17 [0:1] : (tensor<16xbf16>) -> tensor<1xbf16>
    %19 = stablehlo.power %arg0, %18 : tensor<1xbf16>
    return %19 : tensor<1xbf16>
  }
}
