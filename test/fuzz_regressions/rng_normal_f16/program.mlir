module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f16>
    %c = stablehlo.constant dense<> : tensor<0xi64>
    %0 = stablehlo.rng %cst, %cst_0, %c, distribution = NORMAL : (tensor<f16>, tensor<f16>, tensor<0xi64>) -> tensor<f16>
    %1 = stablehlo.is_finite %0 : (tensor<f16>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %2 = stablehlo.subtract %0, %cst_1 : tensor<f16>
    %3 = stablehlo.abs %2 : tensor<f16>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f16>
    %4 = stablehlo.compare LE, %3, %cst_2, FLOAT : (tensor<f16>, tensor<f16>) -> tensor<i1>
    %5 = stablehlo.and %1, %4 : tensor<i1>
    %cst_3 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %6 = stablehlo.select %5, %arg0, %cst_3 : tensor<i1>, tensor<f32>
    return %6 : tensor<f32>
  }
}
