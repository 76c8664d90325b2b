module {
  func.func @main(%arg0: tensor<i16>) -> (tensor<1x5x2xi16>, tensor<i16>) {
    %0 = stablehlo.reshape %arg0 : (tensor<i16>) -> tensor<1xi16>
    %c = stablehlo.constant dense<0> : tensor<i16>
    %1 = stablehlo.pad %0, %c, low = [0], high = [9], interior = [0] : (tensor<1xi16>, tensor<i16>) -> tensor<10xi16>
    %2 = stablehlo.reshape %1 : (tensor<10xi16>) -> tensor<2x5x1xi16>
    %3 = stablehlo.reshape %arg0 : (tensor<i16>) -> tensor<1xi16>
    %c_0 = stablehlo.constant dense<0> : tensor<i16>
    %4 = stablehlo.pad %3, %c_0, low = [0], high = [1], interior = [0] : (tensor<1xi16>, tensor<i16>) -> tensor<2xi16>
    %5 = stablehlo.reshape %4 : (tensor<2xi16>) -> tensor<1x2x1xi16>
    %6 = stablehlo.convolution(%2, %5) dim_numbers = [f, b, 0]x[0, i, o]->[f, b, 0], window = {stride = [2], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x1xi16>, tensor<1x2x1xi16>) -> tensor<1x5x2xi16>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.convert %6 : (tensor<1x5x2xi16>) -> tensor<1x5x2xi32>
    %8 = stablehlo.reshape %7 : (tensor<1x5x2xi32>) -> tensor<10xi32>
    %9 = stablehlo.slice %8 [0:1] : (tensor<10xi32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %9 : (tensor<1xi32>) -> tensor<i32>
    %c_3 = stablehlo.constant dense<5> : tensor<i32>
    %11 = stablehlo.clamp %c_2, %10, %c_3 : tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %12:3 = stablehlo.while(%iterArg = %c_4, %iterArg_6 = %11, %iterArg_7 = %6) : tensor<i32>, tensor<i32>, tensor<1x5x2xi16>
    cond {
      %14 = stablehlo.compare LT, %iterArg, %iterArg_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    } do {
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %14 = stablehlo.add %iterArg, %c_8 : tensor<i32>
      %15 = stablehlo.negate %iterArg_7 : tensor<1x5x2xi16>
      stablehlo.return %14, %iterArg_6, %15 : tensor<i32>, tensor<i32>, tensor<1x5x2xi16>
    }
    %c_5 = stablehlo.constant dense<-32768> : tensor<i16>
    %13 = stablehlo.reduce(%12#2 init: %c_5) applies stablehlo.maximum across dimensions = [0, 1, 2] : (tensor<1x5x2xi16>, tensor<i16>) -> tensor<i16>
    return %6, %13 : tensor<1x5x2xi16>, tensor<i16>
  }
}
