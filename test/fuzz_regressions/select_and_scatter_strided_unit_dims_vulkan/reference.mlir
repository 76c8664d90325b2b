module {
  func.func @main(%arg0: tensor<1x2x64x1xui8>) -> tensor<1x2x64x1xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<1x2x64x1xui8>) -> tensor<1x2x64x1xi32>
    %c = stablehlo.constant dense<-65536> : tensor<i32>
    %c_0 = stablehlo.constant dense<65536> : tensor<i32>
    %1 = stablehlo.clamp %c, %0, %c_0 : (tensor<i32>, tensor<1x2x64x1xi32>, tensor<i32>) -> tensor<1x2x64x1xi32>
    %2 = stablehlo.iota dim = 0 : tensor<128xi32>
    %3 = stablehlo.reshape %2 : (tensor<128xi32>) -> tensor<1x2x64x1xi32>
    %c_1 = stablehlo.constant dense<128> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<1x2x64x1xi32>
    %5 = stablehlo.multiply %1, %4 : tensor<1x2x64x1xi32>
    %6 = stablehlo.add %5, %3 : tensor<1x2x64x1xi32>
    %7 = stablehlo.convert %6 : (tensor<1x2x64x1xi32>) -> tensor<1x2x64x1xf32>
    %8 = stablehlo.convert %arg0 : (tensor<1x2x64x1xui8>) -> tensor<1x2x64x1xf32>
    %9 = stablehlo.reshape %8 : (tensor<1x2x64x1xf32>) -> tensor<128xf32>
    %10 = stablehlo.slice %9 [0:64] : (tensor<128xf32>) -> tensor<64xf32>
    %11 = stablehlo.reshape %10 : (tensor<64xf32>) -> tensor<1x2x32x1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = "stablehlo.select_and_scatter"(%7, %11, %cst) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 2, 1>, window_strides = array<i64: 2, 1, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %13 = stablehlo.compare LE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %13 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<1x2x64x1xf32>, tensor<1x2x32x1xf32>, tensor<f32>) -> tensor<1x2x64x1xf32>
    return %12 : tensor<1x2x64x1xf32>
  }
}
