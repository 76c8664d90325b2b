module {
  func.func @main(%arg0: tensor<8x17x8x5xf32>) -> tensor<8x17x8x5xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<8x17x8x5xf32>, tensor<8x17x8x5xf32>) -> tensor<8x17x8x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x17x8x5xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<8x17x8x5xi1>, tensor<8x17x8x5xf32>
    %cst_0 = stablehlo.constant dense<-9.22337203E+18> : tensor<f32>
    %cst_1 = stablehlo.constant dense<9.22337149E+18> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<8x17x8x5xf32>, tensor<f32>) -> tensor<8x17x8x5xf32>
    %4 = stablehlo.convert %3 : (tensor<8x17x8x5xf32>) -> tensor<8x17x8x5xi64>
    %5 = stablehlo.reshape %4 : (tensor<8x17x8x5xi64>) -> tensor<5440xi64>
    %6 = stablehlo.slice %5 [0:2] : (tensor<5440xi64>) -> tensor<2xi64>
    %7 = stablehlo.convert %6 : (tensor<2xi64>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %7, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x17x8x5xi64>)
    %output_state_2, %output_3 = stablehlo.rng_bit_generator %7, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x17x8x5xi64>)
    %8 = stablehlo.compare EQ, %output, %output_3, SIGNED : (tensor<8x17x8x5xi64>, tensor<8x17x8x5xi64>) -> tensor<8x17x8x5xi1>
    %9 = stablehlo.compare EQ, %output_state, %output_state_2, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %10 = stablehlo.reduce(%9 init: %c) applies stablehlo.and across dimensions = [0] : (tensor<2xi1>, tensor<i1>) -> tensor<i1>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i1>) -> tensor<8x17x8x5xi1>
    %12 = stablehlo.and %8, %11 : tensor<8x17x8x5xi1>
    %13 = stablehlo.reshape %output : (tensor<8x17x8x5xi64>) -> tensor<5440xi64>
    %14 = stablehlo.slice %13 [0:1] : (tensor<5440xi64>) -> tensor<1xi64>
    %15 = stablehlo.reshape %14 : (tensor<1xi64>) -> tensor<i64>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<i64>) -> tensor<5440xi64>
    %17 = stablehlo.compare NE, %13, %16, SIGNED : (tensor<5440xi64>, tensor<5440xi64>) -> tensor<5440xi1>
    %c_4 = stablehlo.constant dense<false> : tensor<i1>
    %18 = stablehlo.reduce(%17 init: %c_4) applies stablehlo.or across dimensions = [0] : (tensor<5440xi1>, tensor<i1>) -> tensor<i1>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<i1>) -> tensor<8x17x8x5xi1>
    %20 = stablehlo.and %12, %19 : tensor<8x17x8x5xi1>
    %cst_5 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x17x8x5xf32>
    %22 = stablehlo.select %20, %arg0, %21 : tensor<8x17x8x5xi1>, tensor<8x17x8x5xf32>
    return %22 : tensor<8x17x8x5xf32>
  }
}
