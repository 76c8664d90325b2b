module {
  func.func @main(%arg0: tensor<1x2xf32>) -> (tensor<1x2xi16>, tensor<1x2xi8>) {
    %0 = stablehlo.is_finite %arg0 : (tensor<1x2xf32>) -> tensor<1x2xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %2 = stablehlo.select %0, %arg0, %1 : tensor<1x2xi1>, tensor<1x2xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+30> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f32>, tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
    %4 = stablehlo.fft %3, type = RFFT, length = [1, 2] : (tensor<1x2xf32>) -> tensor<1x2xcomplex<f32>>
    %5 = stablehlo.convert %arg0 : (tensor<1x2xf32>) -> tensor<1x2xcomplex<f32>>
    %6 = stablehlo.add %4, %5 : tensor<1x2xcomplex<f32>>
    %7 = stablehlo.real %6 : (tensor<1x2xcomplex<f32>>) -> tensor<1x2xf32>
    %8 = stablehlo.compare NE, %7, %7, FLOAT : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %10 = stablehlo.select %8, %9, %7 : tensor<1x2xi1>, tensor<1x2xf32>
    %cst_3 = stablehlo.constant dense<-3.276800e+04> : tensor<f32>
    %cst_4 = stablehlo.constant dense<3.276700e+04> : tensor<f32>
    %11 = stablehlo.clamp %cst_3, %10, %cst_4 : (tensor<f32>, tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
    %12 = stablehlo.convert %11 : (tensor<1x2xf32>) -> tensor<1x2xi16>
    %13 = stablehlo.real %4 : (tensor<1x2xcomplex<f32>>) -> tensor<1x2xf32>
    %14 = stablehlo.compare NE, %13, %13, FLOAT : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %16 = stablehlo.select %14, %15, %13 : tensor<1x2xi1>, tensor<1x2xf32>
    %cst_6 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %17 = stablehlo.clamp %cst_6, %16, %cst_7 : (tensor<f32>, tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
    %18 = stablehlo.convert %17 : (tensor<1x2xf32>) -> tensor<1x2xi8>
    return %12, %18 : tensor<1x2xi16>, tensor<1x2xi8>
  }
}
