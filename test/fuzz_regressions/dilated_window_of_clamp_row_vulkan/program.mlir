module {
  func.func @main(%arg0: tensor<i1>, %arg1: tensor<1x8xf32>, %arg2: tensor<64xui32>) -> tensor<1x14xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<64xui32>) -> tensor<64xf32>
    %1 = stablehlo.slice %0 [0:8] : (tensor<64xf32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<1x8xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<f32>
    %4 = stablehlo.reshape %3 : (tensor<f32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.pad %4, %cst, low = [0], high = [7], interior = [0] : (tensor<1xf32>, tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.reshape %5 : (tensor<8xf32>) -> tensor<1x8xf32>
    %7 = stablehlo.clamp %2, %arg1, %6 : tensor<1x8xf32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %8 = "stablehlo.reduce_window"(%7, %cst_0) <{base_dilations = array<i64: 1, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %9 = stablehlo.minimum %arg3, %arg4 : tensor<f32>
      stablehlo.return %9 : tensor<f32>
    }) : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x14xf32>
    return %8 : tensor<1x14xf32>
  }
}
