func.func @main(%a: tensor<1000xf32>, %i: tensor<i32>) -> tensor<1000xf32> {
  %0 = stablehlo.slice %a [0:999] : (tensor<1000xf32>) -> tensor<999xf32>
  %1 = stablehlo.dynamic_update_slice %a, %0, %i : (tensor<1000xf32>, tensor<999xf32>, tensor<i32>) -> tensor<1000xf32>
  return %1 : tensor<1000xf32>
}
