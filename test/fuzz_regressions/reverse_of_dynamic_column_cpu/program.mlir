module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<6x8xbf16>) -> tensor<5x1xbf16> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.select %0, %cst, %arg0 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %2 = stablehlo.clamp %cst_0, %1, %cst_1 : tensor<f32>
    %3 = stablehlo.convert %2 : (tensor<f32>) -> tensor<i32>
    %c = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.remainder %3, %c : tensor<i32>
    %5 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.select %5, %cst_2, %arg0 : tensor<i1>, tensor<f32>
    %cst_3 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %7 = stablehlo.clamp %cst_3, %6, %cst_4 : tensor<f32>
    %8 = stablehlo.convert %7 : (tensor<f32>) -> tensor<i32>
    %c_5 = stablehlo.constant dense<10> : tensor<i32>
    %9 = stablehlo.remainder %8, %c_5 : tensor<i32>
    %10 = stablehlo.dynamic_slice %arg1, %4, %9, sizes = [5, 1] : (tensor<6x8xbf16>, tensor<i32>, tensor<i32>) -> tensor<5x1xbf16>
    %11 = stablehlo.reverse %10, dims = [0, 1] : tensor<5x1xbf16>
    return %11 : tensor<5x1xbf16>
  }
}
