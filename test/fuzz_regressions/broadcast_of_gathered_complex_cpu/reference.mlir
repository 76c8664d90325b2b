module {
  func.func @main(%arg0: tensor<1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<f32>) -> (tensor<1x16xf32>, tensor<1x16xf32>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<1xcomplex<f32>>
    %1 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.select %1, %cst, %arg2 : tensor<i1>, tensor<f32>
    %cst_0 = stablehlo.constant dense<-2.14748365E+9> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.14748352E+9> : tensor<f32>
    %3 = stablehlo.clamp %cst_0, %2, %cst_1 : tensor<f32>
    %4 = stablehlo.convert %3 : (tensor<f32>) -> tensor<i32>
    %5 = stablehlo.reshape %4 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.pad %5, %c, low = [0], high = [15], interior = [0] : (tensor<1xi32>, tensor<i32>) -> tensor<16xi32>
    %7 = stablehlo.reshape %6 : (tensor<16xi32>) -> tensor<16x1xi32>
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x1xi32>
    %9 = stablehlo.remainder %7, %8 : tensor<16x1xi32>
    %10 = "stablehlo.gather"(%0, %9) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<1xcomplex<f32>>, tensor<16x1xi32>) -> tensor<16xcomplex<f32>>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<16xcomplex<f32>>) -> tensor<1x16xcomplex<f32>>
    %12 = stablehlo.real %11 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    %13 = stablehlo.imag %11 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    %14 = stablehlo.compare NE, %12, %12, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %15 = stablehlo.abs %12 : tensor<1x16xf32>
    %16 = stablehlo.select %14, %15, %12 : tensor<1x16xi1>, tensor<1x16xf32>
    %17 = "stablehlo.sort"(%16) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %45 = stablehlo.bitcast_convert %arg3 : (tensor<f32>) -> tensor<i32>
      %c_7 = stablehlo.constant dense<31> : tensor<i32>
      %46 = stablehlo.shift_right_arithmetic %45, %c_7 : tensor<i32>
      %c_8 = stablehlo.constant dense<2147483647> : tensor<i32>
      %47 = stablehlo.and %46, %c_8 : tensor<i32>
      %48 = stablehlo.xor %45, %47 : tensor<i32>
      %49 = stablehlo.bitcast_convert %arg4 : (tensor<f32>) -> tensor<i32>
      %c_9 = stablehlo.constant dense<31> : tensor<i32>
      %50 = stablehlo.shift_right_arithmetic %49, %c_9 : tensor<i32>
      %c_10 = stablehlo.constant dense<2147483647> : tensor<i32>
      %51 = stablehlo.and %50, %c_10 : tensor<i32>
      %52 = stablehlo.xor %49, %51 : tensor<i32>
      %53 = stablehlo.compare LT, %48, %52, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %53 : tensor<i1>
    }) : (tensor<1x16xf32>) -> tensor<1x16xf32>
    %18 = stablehlo.real %10 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %19 = stablehlo.imag %10 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %20 = stablehlo.reshape %18 : (tensor<16xf32>) -> tensor<1x16xf32>
    %21 = stablehlo.compare NE, %17, %17, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %22 = stablehlo.abs %17 : tensor<1x16xf32>
    %23 = stablehlo.select %21, %22, %17 : tensor<1x16xi1>, tensor<1x16xf32>
    %24 = stablehlo.compare NE, %20, %20, FLOAT : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xi1>
    %25 = stablehlo.abs %20 : tensor<1x16xf32>
    %26 = stablehlo.select %24, %25, %20 : tensor<1x16xi1>, tensor<1x16xf32>
    %27 = stablehlo.bitcast_convert %23 : (tensor<1x16xf32>) -> tensor<1x16xi32>
    %c_3 = stablehlo.constant dense<31> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1x16xi32>
    %29 = stablehlo.shift_right_arithmetic %27, %28 : tensor<1x16xi32>
    %c_4 = stablehlo.constant dense<2147483647> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<1x16xi32>
    %31 = stablehlo.and %29, %30 : tensor<1x16xi32>
    %32 = stablehlo.xor %27, %31 : tensor<1x16xi32>
    %33 = stablehlo.bitcast_convert %26 : (tensor<1x16xf32>) -> tensor<1x16xi32>
    %c_5 = stablehlo.constant dense<31> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<1x16xi32>
    %35 = stablehlo.shift_right_arithmetic %33, %34 : tensor<1x16xi32>
    %c_6 = stablehlo.constant dense<2147483647> : tensor<i32>
    %36 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1x16xi32>
    %37 = stablehlo.and %35, %36 : tensor<1x16xi32>
    %38 = stablehlo.xor %33, %37 : tensor<1x16xi32>
    %39 = stablehlo.compare NE, %32, %38, SIGNED : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi1>
    %40 = stablehlo.reshape %10 : (tensor<16xcomplex<f32>>) -> tensor<1x16xcomplex<f32>>
    %41 = stablehlo.convert %17 : (tensor<1x16xf32>) -> tensor<1x16xcomplex<f32>>
    %42 = stablehlo.select %39, %40, %41 : tensor<1x16xi1>, tensor<1x16xcomplex<f32>>
    %43 = stablehlo.real %42 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    %44 = stablehlo.imag %42 : (tensor<1x16xcomplex<f32>>) -> tensor<1x16xf32>
    return %43, %44 : tensor<1x16xf32>, tensor<1x16xf32>
  }
}
