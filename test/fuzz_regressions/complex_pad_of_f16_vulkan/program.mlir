module {
  func.func @main(%arg0: tensor<1x15xf16>) -> tensor<1x24xcomplex<f32>> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<1x15xf16>, tensor<1x15xf16>) -> tensor<1x15xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<1x15xf16>
    %2 = stablehlo.select %0, %1, %arg0 : tensor<1x15xi1>, tensor<1x15xf16>
    %cst_0 = stablehlo.constant dense<-6.550400e+04> : tensor<f16>
    %cst_1 = stablehlo.constant dense<6.550400e+04> : tensor<f16>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : (tensor<f16>, tensor<1x15xf16>, tensor<f16>) -> tensor<1x15xf16>
    %4 = stablehlo.convert %3 : (tensor<1x15xf16>) -> tensor<1x15xi32>
    %5 = stablehlo.reshape %4 : (tensor<1x15xi32>) -> tensor<15xi32>
    %6 = stablehlo.slice %5 [0:1] : (tensor<15xi32>) -> tensor<1xi32>
    %7 = stablehlo.reshape %6 : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %9 = stablehlo.remainder %7, %8 : tensor<1x1xi32>
    %10 = "stablehlo.gather"(%arg0, %9) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<1x15xf16>, tensor<1x1xi32>) -> tensor<1x8xf16>
    %11 = stablehlo.convert %10 : (tensor<1x8xf16>) -> tensor<1x8xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
    %12 = stablehlo.pad %11, %cst_2, low = [0, 1], high = [1, 1], interior = [0, 2] : (tensor<1x8xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x24xcomplex<f32>>
    %13 = stablehlo.slice %12 [1:2, 0:24] : (tensor<2x24xcomplex<f32>>) -> tensor<1x24xcomplex<f32>>
    return %13 : tensor<1x24xcomplex<f32>>
  }
}
