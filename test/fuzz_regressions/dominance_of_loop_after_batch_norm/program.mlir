module {
  func.func @main(%arg0: tensor<1x3xi32>) -> tensor<3x1xbf16> {
    %0 = stablehlo.convert %arg0 : (tensor<1x3xi32>) -> tensor<1x3xbf16>
    %1 = stablehlo.is_finite %0 : (tensor<1x3xbf16>) -> tensor<1x3xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<1x3xbf16>
    %3 = stablehlo.select %1, %0, %2 : tensor<1x3xi1>, tensor<1x3xbf16>
    %cst_0 = stablehlo.constant dense<-3.000000e+01> : tensor<bf16>
    %cst_1 = stablehlo.constant dense<3.000000e+01> : tensor<bf16>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<bf16>, tensor<1x3xbf16>, tensor<bf16>) -> tensor<1x3xbf16>
    %5 = stablehlo.convert %arg0 : (tensor<1x3xi32>) -> tensor<1x3xbf16>
    %6 = stablehlo.reshape %5 : (tensor<1x3xbf16>) -> tensor<3xbf16>
    %7 = stablehlo.is_finite %6 : (tensor<3xbf16>) -> tensor<3xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<bf16>) -> tensor<3xbf16>
    %9 = stablehlo.select %7, %6, %8 : tensor<3xi1>, tensor<3xbf16>
    %cst_3 = stablehlo.constant dense<-3.000000e+01> : tensor<bf16>
    %cst_4 = stablehlo.constant dense<3.000000e+01> : tensor<bf16>
    %10 = stablehlo.clamp %cst_3, %9, %cst_4 : (tensor<bf16>, tensor<3xbf16>, tensor<bf16>) -> tensor<3xbf16>
    %11 = stablehlo.slice %10 [0:1] : (tensor<3xbf16>) -> tensor<1xbf16>
    %12 = stablehlo.slice %10 [1:2] : (tensor<3xbf16>) -> tensor<1xbf16>
    %13 = stablehlo.slice %10 [2:3] : (tensor<3xbf16>) -> tensor<1xbf16>
    %14 = stablehlo.abs %11 : tensor<1xbf16>
    %15 = "stablehlo.batch_norm_inference"(%4, %11, %12, %13, %14) <{epsilon = 1.000000e-01 : f32, feature_index = 0 : i64}> : (tensor<1x3xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x3xbf16>
    %16 = stablehlo.convert %arg0 : (tensor<1x3xi32>) -> tensor<1x3xi1>
    %17 = stablehlo.reshape %16 : (tensor<1x3xi1>) -> tensor<3xi1>
    %18 = stablehlo.slice %17 [0:1] : (tensor<3xi1>) -> tensor<1xi1>
    %19 = stablehlo.reshape %18 : (tensor<1xi1>) -> tensor<i1>
    %20 = "stablehlo.if"(%19) ({
      %28 = stablehlo.negate %arg0 : tensor<1x3xi32>
      stablehlo.return %28 : tensor<1x3xi32>
    }, {
      %28 = stablehlo.add %arg0, %arg0 : tensor<1x3xi32>
      stablehlo.return %28 : tensor<1x3xi32>
    }) : (tensor<i1>) -> tensor<1x3xi32>
    %c = stablehlo.constant dense<4> : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %21:3 = stablehlo.while(%iterArg = %c_5, %iterArg_6 = %c, %iterArg_7 = %20) : tensor<i32>, tensor<i32>, tensor<1x3xi32>
    cond {
      %28 = stablehlo.compare LT, %iterArg, %iterArg_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %28 : tensor<i1>
    } do {
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %28 = stablehlo.add %iterArg, %c_8 : tensor<i32>
      %c_9 = stablehlo.constant dense<1> : tensor<i32>
      %29 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
      %30 = stablehlo.subtract %iterArg_7, %29 : tensor<1x3xi32>
      stablehlo.return %28, %iterArg_6, %30 : tensor<i32>, tensor<i32>, tensor<1x3xi32>
    }
    %22 = stablehlo.convert %21#2 : (tensor<1x3xi32>) -> tensor<1x3xbf16>
    %23 = stablehlo.reshape %22 : (tensor<1x3xbf16>) -> tensor<3xbf16>
    %24 = stablehlo.slice %23 [0:1] : (tensor<3xbf16>) -> tensor<1xbf16>
    %25 = stablehlo.reshape %24 : (tensor<1xbf16>) -> tensor<bf16>
    %26 = stablehlo.pad %15, %25, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<1x3xbf16>, tensor<bf16>) -> tensor<3x3xbf16>
    %27 = stablehlo.slice %26 [0:3, 1:2] : (tensor<3x3xbf16>) -> tensor<3x1xbf16>
    return %27 : tensor<3x1xbf16>
  }
}
