module {
  func.func @main(%arg0: tensor<8x1024xi64>) -> tensor<1x515xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<8x1024xi64>) -> tensor<8x1024xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1 = stablehlo.is_finite %0 : (tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %2 = stablehlo.abs %0 : tensor<8x1024xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %4 = stablehlo.select %1, %2, %3 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %5 = stablehlo.reduce(%4 init: %cst_1) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x1024xbf16>, tensor<bf16>) -> tensor<bf16>
    %6 = stablehlo.maximum %5, %cst : tensor<bf16>
    %cst_2 = stablehlo.constant dense<1.844670e+19> : tensor<bf16>
    %7 = stablehlo.compare GT, %6, %cst_2, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %cst_3 = stablehlo.constant dense<5.421010e-20> : tensor<bf16>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %8 = stablehlo.select %7, %cst_3, %cst_4 : tensor<i1>, tensor<bf16>
    %9 = stablehlo.multiply %6, %8 : tensor<bf16>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %12 = stablehlo.multiply %0, %10 : tensor<8x1024xbf16>
    %13 = stablehlo.divide %12, %11 : tensor<8x1024xbf16>
    %14 = stablehlo.abs %13 : tensor<8x1024xbf16>
    %cst_5 = stablehlo.constant dense<1.175490e-38> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %16 = stablehlo.compare LT, %14, %15, FLOAT : (tensor<8x1024xbf16>, tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %17 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %18 = stablehlo.select %16, %17, %13 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %19 = stablehlo.tan %18 : tensor<8x1024xbf16>
    %20 = stablehlo.convert %arg0 : (tensor<8x1024xi64>) -> tensor<8x1024xbf16>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %22 = stablehlo.is_finite %19 : (tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %23 = stablehlo.abs %19 : tensor<8x1024xbf16>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %24 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %25 = stablehlo.select %22, %23, %24 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %26 = stablehlo.reduce(%25 init: %cst_10) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x1024xbf16>, tensor<bf16>) -> tensor<bf16>
    %27 = stablehlo.maximum %26, %cst_8 : tensor<bf16>
    %28 = stablehlo.is_finite %20 : (tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %29 = stablehlo.abs %20 : tensor<8x1024xbf16>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %30 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %31 = stablehlo.select %28, %29, %30 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %32 = stablehlo.reduce(%31 init: %cst_12) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x1024xbf16>, tensor<bf16>) -> tensor<bf16>
    %33 = stablehlo.maximum %32, %27 : tensor<bf16>
    %cst_13 = stablehlo.constant dense<1.844670e+19> : tensor<bf16>
    %34 = stablehlo.compare GT, %33, %cst_13, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %cst_14 = stablehlo.constant dense<5.421010e-20> : tensor<bf16>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %35 = stablehlo.select %34, %cst_14, %cst_15 : tensor<i1>, tensor<bf16>
    %36 = stablehlo.multiply %33, %35 : tensor<bf16>
    %37 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %38 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %39 = stablehlo.multiply %19, %37 : tensor<8x1024xbf16>
    %40 = stablehlo.divide %39, %38 : tensor<8x1024xbf16>
    %41 = stablehlo.abs %40 : tensor<8x1024xbf16>
    %cst_16 = stablehlo.constant dense<1.175490e-38> : tensor<bf16>
    %42 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %43 = stablehlo.compare LT, %41, %42, FLOAT : (tensor<8x1024xbf16>, tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %44 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %45 = stablehlo.select %43, %44, %40 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %46 = stablehlo.multiply %20, %37 : tensor<8x1024xbf16>
    %47 = stablehlo.divide %46, %38 : tensor<8x1024xbf16>
    %48 = stablehlo.abs %47 : tensor<8x1024xbf16>
    %cst_18 = stablehlo.constant dense<1.175490e-38> : tensor<bf16>
    %49 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %50 = stablehlo.compare LT, %48, %49, FLOAT : (tensor<8x1024xbf16>, tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %51 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<bf16>) -> tensor<8x1024xbf16>
    %52 = stablehlo.select %50, %51, %47 : tensor<8x1024xi1>, tensor<8x1024xbf16>
    %53 = stablehlo.multiply %45, %21 : tensor<8x1024xbf16>
    %54 = stablehlo.round_nearest_even %53 : tensor<8x1024xbf16>
    %55 = stablehlo.multiply %52, %21 : tensor<8x1024xbf16>
    %56 = stablehlo.round_nearest_even %55 : tensor<8x1024xbf16>
    %57 = stablehlo.compare LT, %54, %56, FLOAT : (tensor<8x1024xbf16>, tensor<8x1024xbf16>) -> tensor<8x1024xi1>
    %58 = stablehlo.slice %57 [2:3:3, 175:690] : (tensor<8x1024xi1>) -> tensor<1x515xi1>
    return %58 : tensor<1x515xi1>
  }
}
