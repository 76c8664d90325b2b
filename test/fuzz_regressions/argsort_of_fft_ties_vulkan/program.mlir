module {
  func.func @main(%arg0: tensor<25x6xi1>) -> tensor<25x6xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<25x6xi1>) -> tensor<25x6xf32>
    %1 = stablehlo.is_finite %0 : (tensor<25x6xf32>) -> tensor<25x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<25x6xf32>
    %3 = stablehlo.select %1, %0, %2 : tensor<25x6xi1>, tensor<25x6xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %4 = stablehlo.clamp %cst_0, %3, %cst_1 : (tensor<f32>, tensor<25x6xf32>, tensor<f32>) -> tensor<25x6xf32>
    %5 = stablehlo.fft %4, type = RFFT, length = [6] : (tensor<25x6xf32>) -> tensor<25x4xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<[5.000000e-01, 0.333333343, 2.500000e-01, 2.000000e-01]> : tensor<4xf32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [1] : (tensor<4xf32>) -> tensor<25x4xf32>
    %7 = stablehlo.real %5 : (tensor<25x4xcomplex<f32>>) -> tensor<25x4xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<25x4xf32>
    %9 = stablehlo.imag %5 : (tensor<25x4xcomplex<f32>>) -> tensor<25x4xf32>
    %10 = stablehlo.multiply %9, %6 : tensor<25x4xf32>
    %11 = stablehlo.complex %8, %10 : tensor<25x4xcomplex<f32>>
    %12 = stablehlo.fft %11, type = IRFFT, length = [6] : (tensor<25x4xcomplex<f32>>) -> tensor<25x6xf32>
    %cst_3 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<25x6xf32>
    %14 = stablehlo.compare NE, %12, %12, FLOAT : (tensor<25x6xf32>, tensor<25x6xf32>) -> tensor<25x6xi1>
    %15 = stablehlo.select %14, %13, %12 : tensor<25x6xi1>, tensor<25x6xf32>
    %16 = stablehlo.iota dim = 0 : tensor<25x6xi32>
    %17:2 = "stablehlo.sort"(%15, %16) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %18 = stablehlo.compare LT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = stablehlo.compare LT, %arg2, %arg1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %20 = stablehlo.not %19 : tensor<i1>
      %21 = stablehlo.compare LT, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %22 = stablehlo.and %20, %21 : tensor<i1>
      %23 = stablehlo.or %18, %22 : tensor<i1>
      stablehlo.return %23 : tensor<i1>
    }) : (tensor<25x6xf32>, tensor<25x6xi32>) -> (tensor<25x6xf32>, tensor<25x6xi32>)
    return %17#1 : tensor<25x6xi32>
  }
}
