// Shapes that can never fit are compile-time errors at the constraint.

func.func @never_broadcast(%arg0: tensor<2x3xf32>, %arg1: tensor<?x4xf32>) -> tensor<2x3xf32> {
  %0 = shape.shape_of %arg0 : tensor<2x3xf32> -> tensor<2xindex>
  %1 = shape.const_shape [2, 4] : tensor<2xindex>
  // expected-error @+1 {{shapes of [2, 3], [2, 4] do not broadcast (known at compile time)}}
  %2 = shape.cstr_broadcastable %0, %1 : tensor<2xindex>, tensor<2xindex>
  %3 = shape.assuming %2 -> (tensor<2x3xf32>) {
    shape.assuming_yield %arg0 : tensor<2x3xf32>
  }
  return %3 : tensor<2x3xf32>
}

// -----

func.func @unranked(%arg0: tensor<*xf32>) -> tensor<?xindex> {
  // expected-error @+1 {{shape.shape_of: operand tensor<*xf32> is unranked}}
  %0 = shape.shape_of %arg0 : tensor<*xf32> -> tensor<?xindex>
  return %0 : tensor<?xindex>
}
