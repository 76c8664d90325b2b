module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<6x8xf32>) -> tensor<5x1xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<6x8xf32>) -> tensor<6x8xbf16>
    %1 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.select %1, %cst, %arg0 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : tensor<f32>
    %4 = stablehlo.convert %3 : (tensor<f32>) -> tensor<i32>
    %c = stablehlo.constant dense<8> : tensor<i32>
    %5 = stablehlo.remainder %4, %c : tensor<i32>
    %6 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.select %6, %cst_2, %arg0 : tensor<i1>, tensor<f32>
    %cst_3 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_4 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %8 = stablehlo.clamp %cst_3, %7, %cst_4 : tensor<f32>
    %9 = stablehlo.convert %8 : (tensor<f32>) -> tensor<i32>
    %c_5 = stablehlo.constant dense<10> : tensor<i32>
    %10 = stablehlo.remainder %9, %c_5 : tensor<i32>
    %11 = stablehlo.dynamic_slice %0, %5, %10, sizes = [5, 1] : (tensor<6x8xbf16>, tensor<i32>, tensor<i32>) -> tensor<5x1xbf16>
    %12 = stablehlo.reverse %11, dims = [0, 1] : tensor<5x1xbf16>
    %13 = stablehlo.convert %12 : (tensor<5x1xbf16>) -> tensor<5x1xf32>
    return %13 : tensor<5x1xf32>
  }
}
