module {
  func.func @main(%arg0: tensor<6xcomplex<f32>>) -> (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>) {
    %0 = stablehlo.slice %arg0 [0:4] : (tensor<6xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %1 = stablehlo.real %arg0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    %2 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.select %2, %3, %1 : tensor<6xi1>, tensor<6xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.convert %5 : (tensor<6xf32>) -> tensor<6xi32>
    %7 = stablehlo.slice %6 [0:1] : (tensor<6xi32>) -> tensor<1xi32>
    %8 = stablehlo.reshape %7 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<8> : tensor<i32>
    %9 = stablehlo.remainder %8, %c : tensor<i32>
    %10 = stablehlo.dynamic_update_slice %arg0, %0, %9 : (tensor<6xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<i32>) -> tensor<6xcomplex<f32>>
    return %10, %arg0 : tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>
  }
}
