module {
  func.func @main(%arg0: tensor<65537xf32>, %arg1: tensor<1x5x2x1xf16>) -> tensor<65537xf32> {
    %cst = stablehlo.constant dense<-1.638400e+04> : tensor<f16>
    %cst_0 = stablehlo.constant dense<1.638400e+04> : tensor<f16>
    %0 = stablehlo.clamp %cst, %arg1, %cst_0 : (tensor<f16>, tensor<1x5x2x1xf16>, tensor<f16>) -> tensor<1x5x2x1xf16>
    %1 = stablehlo.is_finite %arg1 : (tensor<1x5x2x1xf16>) -> tensor<1x5x2x1xi1>
    %2 = stablehlo.select %1, %0, %arg1 : tensor<1x5x2x1xi1>, tensor<1x5x2x1xf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %3 = stablehlo.reduce(%2 init: %cst_1) applies stablehlo.add across dimensions = [2, 3] : (tensor<1x5x2x1xf16>, tensor<f16>) -> tensor<1x5xf16>
    %cst_2 = stablehlo.constant dense<0x7E00> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f16>) -> tensor<1x5x2x1xf16>
    %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<1x5x2x1xf16>, tensor<1x5x2x1xf16>) -> tensor<1x5x2x1xi1>
    %6 = stablehlo.select %5, %4, %arg1 : tensor<1x5x2x1xi1>, tensor<1x5x2x1xf16>
    %7 = "stablehlo.sort"(%6) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f16>, %arg3: tensor<f16>):
      %53 = stablehlo.compare GT, %arg2, %arg3, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>
      stablehlo.return %53 : tensor<i1>
    }) : (tensor<1x5x2x1xf16>) -> tensor<1x5x2x1xf16>
    %8 = stablehlo.abs %3 : tensor<1x5xf16>
    %9 = stablehlo.is_finite %8 : (tensor<1x5xf16>) -> tensor<1x5xi1>
    %10 = stablehlo.abs %8 : tensor<1x5xf16>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f16>) -> tensor<1x5xf16>
    %12 = stablehlo.select %9, %10, %11 : tensor<1x5xi1>, tensor<1x5xf16>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %13 = stablehlo.reduce(%12 init: %cst_4) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<1x5xf16>, tensor<f16>) -> tensor<f16>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %14 = stablehlo.maximum %13, %cst_5 : tensor<f16>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f16>) -> tensor<1x5xf16>
    %16 = stablehlo.divide %8, %15 : tensor<1x5xf16>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %17 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f16>) -> tensor<1x5xf16>
    %18 = stablehlo.multiply %16, %17 : tensor<1x5xf16>
    %19 = stablehlo.round_nearest_even %18 : tensor<1x5xf16>
    %20 = stablehlo.compare NE, %19, %19, FLOAT : (tensor<1x5xf16>, tensor<1x5xf16>) -> tensor<1x5xi1>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f16>) -> tensor<1x5xf16>
    %22 = stablehlo.select %20, %21, %19 : tensor<1x5xi1>, tensor<1x5xf16>
    %cst_8 = stablehlo.constant dense<-3.276800e+04> : tensor<f16>
    %cst_9 = stablehlo.constant dense<3.275200e+04> : tensor<f16>
    %23 = stablehlo.clamp %cst_8, %22, %cst_9 : (tensor<f16>, tensor<1x5xf16>, tensor<f16>) -> tensor<1x5xf16>
    %24 = stablehlo.convert %23 : (tensor<1x5xf16>) -> tensor<1x5xi16>
    %25 = stablehlo.is_finite %arg0 : (tensor<65537xf32>) -> tensor<65537xi1>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<65537xf32>
    %27 = stablehlo.select %25, %arg0, %26 : tensor<65537xi1>, tensor<65537xf32>
    %cst_11 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %28 = stablehlo.clamp %cst_11, %27, %cst_12 : (tensor<f32>, tensor<65537xf32>, tensor<f32>) -> tensor<65537xf32>
    %29 = stablehlo.convert %3 : (tensor<1x5xf16>) -> tensor<1x5xf32>
    %30 = stablehlo.reshape %29 : (tensor<1x5xf32>) -> tensor<5xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.pad %30, %cst_13, low = [0], high = [196606], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<196611xf32>
    %32 = stablehlo.is_finite %31 : (tensor<196611xf32>) -> tensor<196611xi1>
    %33 = stablehlo.abs %31 : tensor<196611xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<196611xf32>
    %35 = stablehlo.select %32, %33, %34 : tensor<196611xi1>, tensor<196611xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.reduce(%35 init: %cst_15) applies stablehlo.maximum across dimensions = [0] : (tensor<196611xf32>, tensor<f32>) -> tensor<f32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.maximum %36, %cst_16 : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [] : (tensor<f32>) -> tensor<196611xf32>
    %39 = stablehlo.divide %31, %38 : tensor<196611xf32>
    %40 = stablehlo.is_finite %39 : (tensor<196611xf32>) -> tensor<196611xi1>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<196611xf32>
    %42 = stablehlo.select %40, %39, %41 : tensor<196611xi1>, tensor<196611xf32>
    %cst_18 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_19 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %43 = stablehlo.clamp %cst_18, %42, %cst_19 : (tensor<f32>, tensor<196611xf32>, tensor<f32>) -> tensor<196611xf32>
    %44 = stablehlo.slice %43 [0:65537] : (tensor<196611xf32>) -> tensor<65537xf32>
    %45 = stablehlo.slice %43 [65537:131074] : (tensor<196611xf32>) -> tensor<65537xf32>
    %46 = stablehlo.slice %43 [131074:196611] : (tensor<196611xf32>) -> tensor<65537xf32>
    %47 = stablehlo.abs %44 : tensor<65537xf32>
    %48 = "stablehlo.batch_norm_inference"(%28, %44, %45, %46, %47) <{epsilon = 1.000000e-03 : f32, feature_index = 0 : i64}> : (tensor<65537xf32>, tensor<65537xf32>, tensor<65537xf32>, tensor<65537xf32>, tensor<65537xf32>) -> tensor<65537xf32>
    %49 = stablehlo.convert %7 : (tensor<1x5x2x1xf16>) -> tensor<1x5x2x1xf32>
    %50 = stablehlo.reshape %49 : (tensor<1x5x2x1xf32>) -> tensor<10xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.pad %50, %cst_20, low = [0], high = [65527], interior = [0] : (tensor<10xf32>, tensor<f32>) -> tensor<65537xf32>
    %52 = stablehlo.compare EQ, %arg0, %51, FLOAT : (tensor<65537xf32>, tensor<65537xf32>) -> tensor<65537xi1>
    return %48 : tensor<65537xf32>
  }
}
