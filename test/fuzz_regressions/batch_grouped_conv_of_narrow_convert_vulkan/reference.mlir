module {
  func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<3x64xf32>) -> tensor<2x1x6x5xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<3x64xf32>) -> tensor<3x64xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.pad %arg0, %c, low = [0], high = [212], interior = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<216xi32>
    %2 = stablehlo.reshape %1 : (tensor<216xi32>) -> tensor<6x3x4x3xi32>
    %3 = stablehlo.compare NE, %0, %0, FLOAT : (tensor<3x64xbf16>, tensor<3x64xbf16>) -> tensor<3x64xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<3x64xbf16>
    %5 = stablehlo.select %3, %4, %0 : tensor<3x64xi1>, tensor<3x64xbf16>
    %cst_0 = stablehlo.constant dense<-2.147480e+09> : tensor<bf16>
    %cst_1 = stablehlo.constant dense<2.139100e+09> : tensor<bf16>
    %6 = stablehlo.clamp %cst_0, %5, %cst_1 : (tensor<bf16>, tensor<3x64xbf16>, tensor<bf16>) -> tensor<3x64xbf16>
    %7 = stablehlo.convert %6 : (tensor<3x64xbf16>) -> tensor<3x64xi32>
    %8 = stablehlo.reshape %7 : (tensor<3x64xi32>) -> tensor<192xi32>
    %9 = stablehlo.slice %8 [0:144] : (tensor<192xi32>) -> tensor<144xi32>
    %10 = stablehlo.reshape %9 : (tensor<144xi32>) -> tensor<2x4x3x6xi32>
    %11 = stablehlo.convolution(%2, %10) dim_numbers = [0, b, 1, f]x[1, 0, i, o]->[0, b, f, 1], window = {stride = [2, 1], pad = [[1, 0], [1, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<6x3x4x3xi32>, tensor<2x4x3x6xi32>) -> tensor<2x1x6x5xi32>
    return %11 : tensor<2x1x6x5xi32>
  }
}
