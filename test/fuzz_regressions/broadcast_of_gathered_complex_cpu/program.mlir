module {
  func.func @main(%arg0: tensor<1xcomplex<f32>>, %arg1: tensor<f32>) -> tensor<1x16xcomplex<f32>> {
    %0 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.select %0, %cst, %arg1 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %2 = stablehlo.clamp %cst_0, %1, %cst_1 : tensor<f32>
    %3 = stablehlo.convert %2 : (tensor<f32>) -> tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.pad %4, %c, low = [0], high = [15], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<16xi32>
    %6 = stablehlo.reshape %5 : (tensor<16xi32>) -> tensor<16x1xi32>
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x1xi32>
    %8 = stablehlo.remainder %6, %7 : tensor<16x1xi32>
    %9 = "stablehlo.gather"(%arg0, %8) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<1xcomplex<f32>>, tensor<16x1xi32>) -> tensor<16xcomplex<f32>>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<16xcomplex<f32>>) -> tensor<1x16xcomplex<f32>>
    %11 = stablehlo.real %10 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    %12 = stablehlo.imag %10 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    %13 = stablehlo.compare NE, %11, %11, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %14 = stablehlo.abs %11 : tensor<1x16xf32>
    %15 = stablehlo.select %13, %14, %11 : tensor<1x16xi1>, tensor<1x16xf32>
    %16 = "stablehlo.sort"(%15) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %30 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %30 : tensor<i1>
    }) : (tensor<1x16xf32>) -> tensor<1x16xf32>
    %17 = stablehlo.real %9 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %18 = stablehlo.imag %9 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %19 = stablehlo.reshape %17 : (tensor<16xf32>) -> tensor<1x16xf32>
    %20 = stablehlo.compare NE, %16, %16, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %21 = stablehlo.abs %16 : tensor<1x16xf32>
    %22 = stablehlo.select %20, %21, %16 : tensor<1x16xi1>, tensor<1x16xf32>
    %23 = stablehlo.compare NE, %19, %19, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %24 = stablehlo.abs %19 : tensor<1x16xf32>
    %25 = stablehlo.select %23, %24, %19 : tensor<1x16xi1>, tensor<1x16xf32>
    %26 = stablehlo.compare NE, %22, %25, TOTALORDER : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %27 = stablehlo.reshape %9 : (tensor<16xcomplex<f32>>) -> tensor<1x16xcomplex<f32>>
    %28 = stablehlo.convert %16 : (tensor<1x16xf32>) -> tensor<1x16xcomplex<f32>>
    %29 = stablehlo.select %26, %27, %28 : tensor<1x16xi1>, tensor<1x16xcomplex<f32>>
    return %29 : tensor<1x16xcomplex<f32>>
  }
}
