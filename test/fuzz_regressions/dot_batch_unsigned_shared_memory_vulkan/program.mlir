module {
  func.func @main(%arg0: tensor<100x17x9x4xui16>) -> tensor<100x17x4x5x5xui32> {
    %c = stablehlo.constant dense<15> : tensor<ui16>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui16>) -> tensor<100x17x9x4xui16>
    %1 = stablehlo.and %arg0, %0 : tensor<100x17x9x4xui16>
    %2 = stablehlo.shift_right_arithmetic %arg0, %1 : tensor<100x17x9x4xui16>
    %3 = stablehlo.reshape %2 : (tensor<100x17x9x4xui16>) -> tensor<61200xui16>
    %4 = stablehlo.slice %3 [0:18720] : (tensor<61200xui16>) -> tensor<18720xui16>
    %5 = stablehlo.reshape %4 : (tensor<18720xui16>) -> tensor<78x15x4x4xui16>
    %6 = stablehlo.convert %2 : (tensor<100x17x9x4xui16>) -> tensor<100x17x9x4xi32>
    %7 = stablehlo.reshape %6 : (tensor<100x17x9x4xi32>) -> tensor<61200xi32>
    %8 = stablehlo.slice %7 [0:1] : (tensor<61200xi32>) -> tensor<1xi32>
    %9 = stablehlo.reshape %8 : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<102> : tensor<i32>
    %10 = stablehlo.remainder %9, %c_0 : tensor<i32>
    %11 = stablehlo.convert %2 : (tensor<100x17x9x4xui16>) -> tensor<100x17x9x4xi32>
    %12 = stablehlo.reshape %11 : (tensor<100x17x9x4xi32>) -> tensor<61200xi32>
    %13 = stablehlo.slice %12 [0:1] : (tensor<61200xi32>) -> tensor<1xi32>
    %14 = stablehlo.reshape %13 : (tensor<1xi32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<19> : tensor<i32>
    %15 = stablehlo.remainder %14, %c_1 : tensor<i32>
    %16 = stablehlo.convert %2 : (tensor<100x17x9x4xui16>) -> tensor<100x17x9x4xi32>
    %17 = stablehlo.reshape %16 : (tensor<100x17x9x4xi32>) -> tensor<61200xi32>
    %18 = stablehlo.slice %17 [0:1] : (tensor<61200xi32>) -> tensor<1xi32>
    %19 = stablehlo.reshape %18 : (tensor<1xi32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<11> : tensor<i32>
    %20 = stablehlo.remainder %19, %c_2 : tensor<i32>
    %21 = stablehlo.convert %2 : (tensor<100x17x9x4xui16>) -> tensor<100x17x9x4xi32>
    %22 = stablehlo.reshape %21 : (tensor<100x17x9x4xi32>) -> tensor<61200xi32>
    %23 = stablehlo.slice %22 [0:1] : (tensor<61200xi32>) -> tensor<1xi32>
    %24 = stablehlo.reshape %23 : (tensor<1xi32>) -> tensor<i32>
    %c_3 = stablehlo.constant dense<6> : tensor<i32>
    %25 = stablehlo.remainder %24, %c_3 : tensor<i32>
    %26 = stablehlo.dynamic_update_slice %arg0, %5, %10, %15, %20, %25 : (tensor<100x17x9x4xui16>, tensor<78x15x4x4xui16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<100x17x9x4xui16>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2, 3] : (tensor<100x17x9x4xui16>) -> tensor<100x17x9x4x3xui16>
    %28 = stablehlo.reshape %26 : (tensor<100x17x9x4xui16>) -> tensor<61200xui16>
    %c_4 = stablehlo.constant dense<0> : tensor<ui16>
    %29 = stablehlo.pad %28, %c_4, low = [0], high = [6300], interior = [0] : (tensor<61200xui16>, tensor<ui16>) -> tensor<67500xui16>
    %30 = stablehlo.reshape %29 : (tensor<67500xui16>) -> tensor<100x3x9x5x5xui16>
    %31 = stablehlo.dot_general %27, %30, batching_dims = [0] x [0], contracting_dims = [4, 2] x [1, 2] : (tensor<100x17x9x4x3xui16>, tensor<100x3x9x5x5xui16>) -> tensor<100x17x4x5x5xui16>
    %32 = stablehlo.convert %31 : (tensor<100x17x4x5x5xui16>) -> tensor<100x17x4x5x5xui32>
    return %32 : tensor<100x17x4x5x5xui32>
  }
}
