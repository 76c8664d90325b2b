module {
  func.func @main(%arg0: tensor<4096xf32>) -> tensor<32x32x4xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4096xf32>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<4096xi1>, tensor<4096xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<4096xf32>, tensor<f32>) -> tensor<4096xf32>
    %4 = stablehlo.convert %3 : (tensor<4096xf32>) -> tensor<4096xi32>
    %5 = stablehlo.slice %4 [0:1] : (tensor<4096xi32>) -> tensor<1xi32>
    %6 = stablehlo.reshape %5 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %7 = stablehlo.remainder %6, %c : tensor<i32>
    %8 = "stablehlo.case"(%7) ({
      %14 = stablehlo.negate %arg0 : tensor<4096xf32>
      stablehlo.return %14 : tensor<4096xf32>
    }, {
      %14 = stablehlo.negate %arg0 : tensor<4096xf32>
      stablehlo.return %14 : tensor<4096xf32>
    }, {
      %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4096xf32>
      %15 = stablehlo.subtract %arg0, %14 : tensor<4096xf32>
      stablehlo.return %15 : tensor<4096xf32>
    }) : (tensor<i32>) -> tensor<4096xf32>
    %9 = stablehlo.reshape %8 : (tensor<4096xf32>) -> tensor<32x32x4xf32>
    %10 = stablehlo.reshape %9 : (tensor<32x32x4xf32>) -> tensor<4096xf32>
    %11 = stablehlo.slice %10 [0:336] : (tensor<4096xf32>) -> tensor<336xf32>
    %12 = stablehlo.reshape %11 : (tensor<336xf32>) -> tensor<28x12x1xf32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %c_3 = stablehlo.constant dense<7> : tensor<i32>
    %c_4 = stablehlo.constant dense<-1> : tensor<i32>
    %13 = stablehlo.dynamic_update_slice %9, %12, %c_2, %c_3, %c_4 : (tensor<32x32x4xf32>, tensor<28x12x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x32x4xf32>
    return %13 : tensor<32x32x4xf32>
  }
}
