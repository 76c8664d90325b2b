module {
  func.func @main(%arg0: tensor<1x1x128xi8>, %arg1: tensor<2xcomplex<f32>>) -> tensor<1x1x125xi8> {
    %c = stablehlo.constant dense<-128> : tensor<i8>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [] : (tensor<1x1x128xi8>, tensor<i8>) -> tensor<1x1x128xi8>
    %1 = stablehlo.real %arg1 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %2 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %4 = stablehlo.select %2, %3, %1 : tensor<2xi1>, tensor<2xf32>
    %cst_0 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %5 = stablehlo.clamp %cst_0, %4, %cst_1 : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %6 = stablehlo.convert %5 : (tensor<2xf32>) -> tensor<2xi8>
    %c_2 = stablehlo.constant dense<0> : tensor<i8>
    %7 = stablehlo.pad %6, %c_2, low = [0], high = [3], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<5xi8>
    %8 = stablehlo.reshape %7 : (tensor<5xi8>) -> tensor<1x1x5xi8>
    %9 = stablehlo.convolution(%0, %8) dim_numbers = [f, b, 0]x[i, o, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 1]], lhs_dilate = [2], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x128xi8>, tensor<1x1x5xi8>) -> tensor<1x1x125xi8>
    return %9 : tensor<1x1x125xi8>
  }
}
