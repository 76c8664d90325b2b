module {
  func.func @main(%arg0: tensor<ui8>, %arg1: tensor<3x3x7xf32>) -> (tensor<ui8>, tensor<1x21x3xf32>, tensor<7x3x3xf32>) {
    %0 = stablehlo.reshape %arg1 : (tensor<3x3x7xf32>) -> tensor<1x21x3xf32>
    %1 = stablehlo.reshape %arg1 : (tensor<3x3x7xf32>) -> tensor<63xf32>
    %2 = stablehlo.reshape %1 : (tensor<63xf32>) -> tensor<1x21x3xf32>
    %3 = stablehlo.add %0, %2 : tensor<1x21x3xf32>
    %4 = stablehlo.convert %arg1 : (tensor<3x3x7xf32>) -> tensor<3x3x7xi1>
    %5 = stablehlo.reshape %4 : (tensor<3x3x7xi1>) -> tensor<63xi1>
    %6 = stablehlo.slice %5 [0:1] : (tensor<63xi1>) -> tensor<1xi1>
    %7 = stablehlo.reshape %6 : (tensor<1xi1>) -> tensor<i1>
    %8 = "stablehlo.if"(%7) ({
      %10 = stablehlo.add %arg1, %arg1 : tensor<3x3x7xf32>
      stablehlo.return %10 : tensor<3x3x7xf32>
    }, {
      %10 = stablehlo.sine %arg1 : tensor<3x3x7xf32>
      stablehlo.return %10 : tensor<3x3x7xf32>
    }) : (tensor<i1>) -> tensor<3x3x7xf32>
    %9 = stablehlo.transpose %8, dims = [2, 0, 1] : (tensor<3x3x7xf32>) -> tensor<7x3x3xf32>
    return %arg0, %3, %9 : tensor<ui8>, tensor<1x21x3xf32>, tensor<7x3x3xf32>
  }
}
