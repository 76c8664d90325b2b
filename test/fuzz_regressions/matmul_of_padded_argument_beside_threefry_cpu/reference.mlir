module {
  func.func @main(%arg0: tensor<1x50xf32>) -> tensor<8x2xf32> {
    %c = stablehlo.constant dense<[3578525040830722062, 6355861812112474374]> : tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %c, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1x50xi32>)
    %output_state_0, %output_1 = stablehlo.rng_bit_generator %c, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1x50xi32>)
    %0 = stablehlo.compare EQ, %output, %output_1, SIGNED : (tensor<1x50xi32>, tensor<1x50xi32>) -> tensor<1x50xi1>
    %1 = stablehlo.compare EQ, %output_state, %output_state_0, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
    %c_2 = stablehlo.constant dense<true> : tensor<i1>
    %2 = stablehlo.reduce(%1 init: %c_2) applies stablehlo.and across dimensions = [0] : (tensor<2xi1>, tensor<i1>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x50xi1>
    %4 = stablehlo.and %0, %3 : tensor<1x50xi1>
    %cst = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x50xf32>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<1x50xi1>, tensor<1x50xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<1x50xf32>) -> tensor<50xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.pad %7, %cst_3, low = [0], high = [750], interior = [0] : (tensor<50xf32>, tensor<f32>) -> tensor<800xf32>
    %9 = stablehlo.reshape %8 : (tensor<800xf32>) -> tensor<1x50x8x2xf32>
    %10 = stablehlo.dot_general %6, %9, contracting_dims = [0, 1] x [0, 1] : (tensor<1x50xf32>, tensor<1x50x8x2xf32>) -> tensor<8x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
    %12 = stablehlo.compare EQ, %10, %11, FLOAT : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xi1>
    %13 = stablehlo.select %12, %11, %10 : tensor<8x2xi1>, tensor<8x2xf32>
    %14 = stablehlo.reshape %6 : (tensor<1x50xf32>) -> tensor<50xf32>
    %15 = stablehlo.slice %14 [0:16] : (tensor<50xf32>) -> tensor<16xf32>
    %16 = stablehlo.reshape %15 : (tensor<16xf32>) -> tensor<8x2xf32>
    %17 = "stablehlo.map"(%13, %16) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %18 = stablehlo.subtract %arg1, %arg2 : tensor<f32>
      %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<f32>
      %20 = stablehlo.subtract %18, %19 : tensor<f32>
      stablehlo.return %20 : tensor<f32>
    }) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    return %17 : tensor<8x2xf32>
  }
}
