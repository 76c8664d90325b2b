module {
  func.func @main(%arg0: tensor<6x100xi32>) -> (tensor<6x100xi32>, tensor<5x3x2xi32>) {
    %c = stablehlo.constant dense<-13981> : tensor<i32>
    %c_0 = stablehlo.constant dense<13981> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : (tensor<i32>, tensor<6x100xi32>, tensor<i32>) -> tensor<6x100xi32>
    %1 = stablehlo.iota dim = 0 : tensor<600xi32>
    %2 = stablehlo.reshape %1 : (tensor<600xi32>) -> tensor<6x100xi32>
    %c_1 = stablehlo.constant dense<600> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6x100xi32>
    %4 = stablehlo.multiply %0, %3 : tensor<6x100xi32>
    %5 = stablehlo.add %4, %2 : tensor<6x100xi32>
    %6 = stablehlo.reshape %arg0 : (tensor<6x100xi32>) -> tensor<600xi32>
    %7 = stablehlo.slice %6 [0:392] : (tensor<600xi32>) -> tensor<392xi32>
    %8 = stablehlo.reshape %7 : (tensor<392xi32>) -> tensor<4x98xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %9 = "stablehlo.select_and_scatter"(%5, %8, %c_2) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.compare LE, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %44 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %44 : tensor<i32>
    }) : (tensor<6x100xi32>, tensor<4x98xi32>, tensor<i32>) -> tensor<6x100xi32>
    %10 = stablehlo.iota dim = 0 : tensor<6x100xi32>
    %11:2 = "stablehlo.sort"(%9, %10) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %44 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %45 = stablehlo.compare LT, %arg2, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %46 = stablehlo.not %45 : tensor<i1>
      %47 = stablehlo.compare LT, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %48 = stablehlo.and %46, %47 : tensor<i1>
      %49 = stablehlo.or %44, %48 : tensor<i1>
      stablehlo.return %49 : tensor<i1>
    }) : (tensor<6x100xi32>, tensor<6x100xi32>) -> (tensor<6x100xi32>, tensor<6x100xi32>)
    %12 = stablehlo.reshape %11#1 : (tensor<6x100xi32>) -> tensor<4x3x50xi32>
    %13 = stablehlo.reshape %11#1 : (tensor<6x100xi32>) -> tensor<600xi32>
    %14 = stablehlo.reshape %13 : (tensor<600xi32>) -> tensor<4x3x50xi32>
    %15 = stablehlo.reshape %arg0 : (tensor<6x100xi32>) -> tensor<600xi32>
    %16 = stablehlo.reshape %15 : (tensor<600xi32>) -> tensor<4x3x50xi32>
    %17 = stablehlo.clamp %14, %12, %16 : tensor<4x3x50xi32>
    %c_3 = stablehlo.constant dense<-13981> : tensor<i32>
    %c_4 = stablehlo.constant dense<13981> : tensor<i32>
    %18 = stablehlo.clamp %c_3, %17, %c_4 : (tensor<i32>, tensor<4x3x50xi32>, tensor<i32>) -> tensor<4x3x50xi32>
    %19 = stablehlo.iota dim = 0 : tensor<600xi32>
    %20 = stablehlo.reshape %19 : (tensor<600xi32>) -> tensor<4x3x50xi32>
    %c_5 = stablehlo.constant dense<600> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<4x3x50xi32>
    %22 = stablehlo.multiply %18, %21 : tensor<4x3x50xi32>
    %23 = stablehlo.add %22, %20 : tensor<4x3x50xi32>
    %24 = stablehlo.reshape %9 : (tensor<6x100xi32>) -> tensor<600xi32>
    %25 = stablehlo.slice %24 [0:24] : (tensor<600xi32>) -> tensor<24xi32>
    %26 = stablehlo.reshape %25 : (tensor<24xi32>) -> tensor<1x1x24xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %27 = "stablehlo.select_and_scatter"(%23, %26, %c_6) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 3, 3, 3>, window_strides = array<i64: 2, 2, 2>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.compare LE, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %44 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %44 : tensor<i32>
    }) : (tensor<4x3x50xi32>, tensor<1x1x24xi32>, tensor<i32>) -> tensor<4x3x50xi32>
    %c_7 = stablehlo.constant dense<-13981> : tensor<i32>
    %c_8 = stablehlo.constant dense<13981> : tensor<i32>
    %28 = stablehlo.clamp %c_7, %9, %c_8 : (tensor<i32>, tensor<6x100xi32>, tensor<i32>) -> tensor<6x100xi32>
    %29 = stablehlo.iota dim = 0 : tensor<600xi32>
    %30 = stablehlo.reshape %29 : (tensor<600xi32>) -> tensor<6x100xi32>
    %c_9 = stablehlo.constant dense<600> : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<6x100xi32>
    %32 = stablehlo.multiply %28, %31 : tensor<6x100xi32>
    %33 = stablehlo.add %32, %30 : tensor<6x100xi32>
    %34 = stablehlo.reshape %27 : (tensor<4x3x50xi32>) -> tensor<600xi32>
    %35 = stablehlo.slice %34 [0:198] : (tensor<600xi32>) -> tensor<198xi32>
    %36 = stablehlo.reshape %35 : (tensor<198xi32>) -> tensor<6x33xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %37 = "stablehlo.select_and_scatter"(%33, %36, %c_10) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 3>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.compare LE, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %44 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %44 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %44 : tensor<i32>
    }) : (tensor<6x100xi32>, tensor<6x33xi32>, tensor<i32>) -> tensor<6x100xi32>
    %38 = stablehlo.reshape %11#1 : (tensor<6x100xi32>) -> tensor<600xi32>
    %39 = stablehlo.slice %38 [0:5] : (tensor<600xi32>) -> tensor<5xi32>
    %40 = stablehlo.reshape %39 : (tensor<5xi32>) -> tensor<5x1xi32>
    %c_11 = stablehlo.constant dense<52> : tensor<i32>
    %41 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %42 = stablehlo.remainder %40, %41 : tensor<5x1xi32>
    %43 = "stablehlo.gather"(%27, %42) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 3, 2, 1>}> : (tensor<4x3x50xi32>, tensor<5x1xi32>) -> tensor<5x3x2xi32>
    return %37, %43 : tensor<6x100xi32>, tensor<5x3x2xi32>
  }
}
