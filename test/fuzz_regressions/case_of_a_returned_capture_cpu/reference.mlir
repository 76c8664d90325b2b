module {
  func.func @main(%arg0: tensor<2x2xi1>) -> tensor<4x1x2x2xi32> {
    %c = stablehlo.constant dense<[3604393948893791719, 7671293644283223216, 4016485185251607720]> : tensor<3xui64>
    %output_state, %output = stablehlo.rng_bit_generator %c, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xi32>)
    %output_state_0, %output_1 = stablehlo.rng_bit_generator %c, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xi32>)
    %0 = stablehlo.compare EQ, %output, %output_1, SIGNED : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
    %1 = stablehlo.compare EQ, %output_state, %output_state_0, UNSIGNED : (tensor<3xui64>, tensor<3xui64>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<true> : tensor<i1>
    %2 = stablehlo.reduce(%1 init: %c_2) applies stablehlo.and across dimensions = [0] : (tensor<3xi1>, tensor<i1>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<2x2xi1>
    %4 = stablehlo.and %0, %3 : tensor<2x2xi1>
    %c_3 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i1>) -> tensor<2x2xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<2x2xi1>, tensor<2x2xi1>
    %7 = stablehlo.convert %6 : (tensor<2x2xi1>) -> tensor<2x2xi32>
    %8 = stablehlo.reshape %7 : (tensor<2x2xi32>) -> tensor<4xi32>
    %9 = stablehlo.slice %8 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %9 : (tensor<1xi32>) -> tensor<i32>
    %c_4 = stablehlo.constant dense<5> : tensor<i32>
    %11 = stablehlo.remainder %10, %c_4 : tensor<i32>
    %12 = "stablehlo.case"(%11) ({
      %23 = stablehlo.not %6 : tensor<2x2xi1>
      stablehlo.return %23 : tensor<2x2xi1>
    }, {
      %23 = stablehlo.not %6 : tensor<2x2xi1>
      stablehlo.return %23 : tensor<2x2xi1>
    }, {
      stablehlo.return %6 : tensor<2x2xi1>
    }) : (tensor<i32>) -> tensor<2x2xi1>
    %13 = stablehlo.convert %12 : (tensor<2x2xi1>) -> tensor<2x2xi32>
    %14 = stablehlo.reshape %13 : (tensor<2x2xi32>) -> tensor<4xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.pad %14, %c_5, low = [0], high = [266], interior = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<270xi32>
    %16 = stablehlo.reshape %15 : (tensor<270xi32>) -> tensor<2x3x5x9xi32>
    %17 = stablehlo.slice %16 [0:2, 1:3, 0:5, 0:9] : (tensor<2x3x5x9xi32>) -> tensor<2x2x5x9xi32>
    %18 = stablehlo.convert %6 : (tensor<2x2xi1>) -> tensor<2x2xi32>
    %19 = stablehlo.reshape %18 : (tensor<2x2xi32>) -> tensor<4xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.pad %19, %c_6, low = [0], high = [26], interior = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<30xi32>
    %21 = stablehlo.reshape %20 : (tensor<30xi32>) -> tensor<1x2x3x5xi32>
    %22 = stablehlo.convolution(%17, %21) dim_numbers = [b, 1, f, 0]x[1, o, 0, i]->[0, 1, f, b], window = {stride = [2, 3], pad = [[0, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x2x5x9xi32>, tensor<1x2x3x5xi32>) -> tensor<4x1x2x2xi32>
    return %22 : tensor<4x1x2x2xi32>
  }
}
