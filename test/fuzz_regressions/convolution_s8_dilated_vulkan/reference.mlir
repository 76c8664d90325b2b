module {
  func.func @main(%arg0: tensor<1x1x128xi8>, %arg1: tensor<2xf32>, %arg2: tensor<2xf32>) -> tensor<1x1x125xi8> {
    %0 = stablehlo.complex %arg1, %arg2 : tensor<2xcomplex<f32>>
    %c = stablehlo.constant dense<-128> : tensor<i8>
    %1 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [] : (tensor<1x1x128xi8>, tensor<i8>) -> tensor<1x1x128xi8>
    %2 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %3 = stablehlo.compare NE, %2, %2, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %5 = stablehlo.select %3, %4, %2 : tensor<2xi1>, tensor<2xf32>
    %cst_0 = stablehlo.constant dense<-1.280000e+02> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %6 = stablehlo.clamp %cst_0, %5, %cst_1 : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %7 = stablehlo.convert %6 : (tensor<2xf32>) -> tensor<2xi8>
    %c_2 = stablehlo.constant dense<0> : tensor<i8>
    %8 = stablehlo.pad %7, %c_2, low = [0], high = [3], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<5xi8>
    %9 = stablehlo.reshape %8 : (tensor<5xi8>) -> tensor<1x1x5xi8>
    %10 = stablehlo.convolution(%1, %9) dim_numbers = [f, b, 0]x[i, o, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 1]], lhs_dilate = [2], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x128xi8>, tensor<1x1x5xi8>) -> tensor<1x1x125xi8>
    return %10 : tensor<1x1x125xi8>
  }
}
