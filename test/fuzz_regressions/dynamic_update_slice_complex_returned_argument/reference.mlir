module {
  func.func @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<6xcomplex<f32>>
    %1 = stablehlo.slice %0 [0:4] : (tensor<6xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %2 = stablehlo.real %0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    %3 = stablehlo.compare NE, %2, %2, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %5 = stablehlo.select %3, %4, %2 : tensor<6xi1>, tensor<6xf32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %6 = stablehlo.clamp %cst_0, %5, %cst_1 : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
    %7 = stablehlo.convert %6 : (tensor<6xf32>) -> tensor<6xi32>
    %8 = stablehlo.slice %7 [0:1] : (tensor<6xi32>) -> tensor<1xi32>
    %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<8> : tensor<i32>
    %10 = stablehlo.remainder %9, %c : tensor<i32>
    %11 = stablehlo.dynamic_update_slice %0, %1, %10 : (tensor<6xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<i32>) -> tensor<6xcomplex<f32>>
    %12 = stablehlo.real %11 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    %13 = stablehlo.imag %11 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    %14 = stablehlo.real %0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    %15 = stablehlo.imag %0 : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
    return %12, %13, %14, %15 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  }
}
