module {
  func.func @main(%arg0: tensor<1x5xui8>) -> tensor<1x5xi8> {
    %0 = "stablehlo.map"(%arg0, %arg0) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg1: tensor<ui8>, %arg2: tensor<ui8>):
      %19 = stablehlo.xor %arg1, %arg2 : tensor<ui8>
      %20 = stablehlo.not %19 : tensor<ui8>
      stablehlo.return %20 : tensor<ui8>
    }) : (tensor<1x5xui8>, tensor<1x5xui8>) -> tensor<1x5xui8>
    %1 = stablehlo.bitcast_convert %0 : (tensor<1x5xui8>) -> tensor<1x5xi8>
    %2 = stablehlo.reshape %1 : (tensor<1x5xi8>) -> tensor<5xi8>
    %3 = stablehlo.slice %2 [0:3] : (tensor<5xi8>) -> tensor<3xi8>
    %4 = stablehlo.reshape %3 : (tensor<3xi8>) -> tensor<1x3xi8>
    %5 = stablehlo.convert %1 : (tensor<1x5xi8>) -> tensor<1x5xi32>
    %6 = stablehlo.reshape %5 : (tensor<1x5xi32>) -> tensor<5xi32>
    %7 = stablehlo.slice %6 [0:1] : (tensor<5xi32>) -> tensor<1xi32>
    %8 = stablehlo.reshape %7 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %9 = stablehlo.remainder %8, %c : tensor<i32>
    %10 = stablehlo.convert %1 : (tensor<1x5xi8>) -> tensor<1x5xi32>
    %11 = stablehlo.reshape %10 : (tensor<1x5xi32>) -> tensor<5xi32>
    %12 = stablehlo.slice %11 [0:1] : (tensor<5xi32>) -> tensor<1xi32>
    %13 = stablehlo.reshape %12 : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %14 = stablehlo.remainder %13, %c_0 : tensor<i32>
    %15 = stablehlo.dynamic_update_slice %1, %4, %9, %14 : (tensor<1x5xi8>, tensor<1x3xi8>, tensor<i32>, tensor<i32>) -> tensor<1x5xi8>
    %16 = stablehlo.compare LE, %1, %15, SIGNED : (tensor<1x5xi8>, tensor<1x5xi8>) -> tensor<1x5xi1>
    %17 = stablehlo.convert %0 : (tensor<1x5xui8>) -> tensor<1x5xi8>
    %18 = stablehlo.select %16, %15, %17 : tensor<1x5xi1>, tensor<1x5xi8>
    return %18 : tensor<1x5xi8>
  }
}
