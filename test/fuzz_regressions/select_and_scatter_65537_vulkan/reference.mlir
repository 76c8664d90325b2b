module {
  func.func @main(%arg0: tensor<65537xi1>) -> tensor<65537xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<65537xi1>) -> tensor<65537xi32>
    %c = stablehlo.constant dense<-127> : tensor<i32>
    %c_0 = stablehlo.constant dense<127> : tensor<i32>
    %1 = stablehlo.clamp %c, %0, %c_0 : (tensor<i32>, tensor<65537xi32>, tensor<i32>) -> tensor<65537xi32>
    %2 = stablehlo.iota dim = 0 : tensor<65537xi32>
    %3 = stablehlo.reshape %2 : (tensor<65537xi32>) -> tensor<65537xi32>
    %c_1 = stablehlo.constant dense<65537> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<65537xi32>
    %5 = stablehlo.multiply %1, %4 : tensor<65537xi32>
    %6 = stablehlo.add %5, %3 : tensor<65537xi32>
    %7 = stablehlo.convert %6 : (tensor<65537xi32>) -> tensor<65537xf32>
    %8 = stablehlo.convert %arg0 : (tensor<65537xi1>) -> tensor<65537xf32>
    %9 = stablehlo.slice %8 [0:65536] : (tensor<65537xf32>) -> tensor<65536xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = "stablehlo.select_and_scatter"(%7, %9, %cst) <{padding = dense<0> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %11 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %11 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %11 : tensor<f32>
    }) : (tensor<65537xf32>, tensor<65536xf32>, tensor<f32>) -> tensor<65537xf32>
    return %10 : tensor<65537xf32>
  }
}
