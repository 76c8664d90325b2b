module {
  func.func @main(%arg0: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi8>) {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg1: tensor<i8>, %arg2: tensor<i8>):
      %2 = stablehlo.compare GT, %arg1, %arg2, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<3xi8>) -> tensor<3xi8>
    %c = stablehlo.constant dense<1> : tensor<i8>
    %1 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.multiply across dimensions = [] : (tensor<3xi8>, tensor<i8>) -> tensor<3xi8>
    return %1, %0 : tensor<3xi8>, tensor<3xi8>
  }
}
