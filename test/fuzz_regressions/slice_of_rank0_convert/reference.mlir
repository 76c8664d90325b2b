module {
  func.func @main(%arg0: tensor<1xui32>, %arg1: tensor<f16>) -> tensor<1xui32> {
    %0 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.select %0, %cst, %arg1 : tensor<i1>, tensor<f16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %cst_1 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %2 = stablehlo.clamp %cst_0, %1, %cst_1 : tensor<f16>
    %3 = stablehlo.convert %2 : (tensor<f16>) -> tensor<ui32>
    %4 = stablehlo.reshape %3 : (tensor<ui32>) -> tensor<1xui32>
    %5 = stablehlo.slice %4 [0:0] : (tensor<1xui32>) -> tensor<0xui32>
    %6 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %7 = stablehlo.select %6, %cst_2, %arg1 : tensor<i1>, tensor<f16>
    %cst_3 = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
    %cst_4 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %8 = stablehlo.clamp %cst_3, %7, %cst_4 : tensor<f16>
    %9 = stablehlo.convert %8 : (tensor<f16>) -> tensor<i32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %10 = stablehlo.remainder %9, %c : tensor<i32>
    %11 = stablehlo.dynamic_update_slice %arg0, %5, %10 : (tensor<1xui32>, tensor<0xui32>, tensor<i32>) -> tensor<1xui32>
    return %11 : tensor<1xui32>
  }
}
