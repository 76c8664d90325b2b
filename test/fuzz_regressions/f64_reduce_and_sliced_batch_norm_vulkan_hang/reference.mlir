module {
  func.func @main(%arg0: tensor<2x100x7xi1>, %arg1: tensor<8x25x7xf64>) -> tensor<8xf64> {
    %0 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<8x25x7xf64>, tensor<8x25x7xf64>) -> tensor<8x25x7xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<8x25x7xf64>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<8x25x7xi1>, tensor<8x25x7xf64>
    %cst_0 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %3 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.minimum across dimensions = [1, 2] : (tensor<8x25x7xf64>, tensor<f64>) -> tensor<8xf64>
    %4 = stablehlo.is_finite %3 : (tensor<8xf64>) -> tensor<8xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<8xf64>
    %6 = stablehlo.select %4, %3, %5 : tensor<8xi1>, tensor<8xf64>
    %cst_2 = stablehlo.constant dense<-1.000000e+04> : tensor<f64>
    %cst_3 = stablehlo.constant dense<1.000000e+04> : tensor<f64>
    %7 = stablehlo.clamp %cst_2, %6, %cst_3 : (tensor<f64>, tensor<8xf64>, tensor<f64>) -> tensor<8xf64>
    %8 = stablehlo.convert %arg0 : (tensor<2x100x7xi1>) -> tensor<2x100x7xf64>
    %9 = stablehlo.reshape %8 : (tensor<2x100x7xf64>) -> tensor<1400xf64>
    %10 = stablehlo.slice %9 [0:24] : (tensor<1400xf64>) -> tensor<24xf64>
    %11 = stablehlo.is_finite %10 : (tensor<24xf64>) -> tensor<24xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<24xf64>
    %13 = stablehlo.select %11, %10, %12 : tensor<24xi1>, tensor<24xf64>
    %cst_5 = stablehlo.constant dense<-1.000000e+04> : tensor<f64>
    %cst_6 = stablehlo.constant dense<1.000000e+04> : tensor<f64>
    %14 = stablehlo.clamp %cst_5, %13, %cst_6 : (tensor<f64>, tensor<24xf64>, tensor<f64>) -> tensor<24xf64>
    %15 = stablehlo.slice %14 [0:8] : (tensor<24xf64>) -> tensor<8xf64>
    %16 = stablehlo.slice %14 [8:16] : (tensor<24xf64>) -> tensor<8xf64>
    %17 = stablehlo.slice %14 [16:24] : (tensor<24xf64>) -> tensor<8xf64>
    %18 = stablehlo.abs %15 : tensor<8xf64>
    %19 = "stablehlo.batch_norm_inference"(%7, %15, %16, %17, %18) <{epsilon = 1.000000e+00 : f32, feature_index = 0 : i64}> : (tensor<8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
    return %19 : tensor<8xf64>
  }
}
