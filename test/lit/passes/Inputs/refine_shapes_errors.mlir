// Shapes that contradict the program once refined: errors at the op, with the shapes.

func.func @reshape_count(%a: tensor<4x3xf32>) -> tensor<?xf32> {
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4x3xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.add %d, %one : tensor<i32>
  %n64 = stablehlo.convert %n : (tensor<i32>) -> tensor<i64>
  %s = stablehlo.reshape %n64 : (tensor<i64>) -> tensor<1xi64>
  // expected-error @+1 {{stablehlo.dynamic_reshape: cannot reshape tensor<4x3xf32> (12 elements) to [5] (5 elements)}}
  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<4x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @broadcast_mismatch(%a: tensor<4xf32>) -> tensor<?x?xf32> {
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.subtract %d, %one : tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %s = stablehlo.concatenate %two, %n1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  // expected-error @+1 {{stablehlo.dynamic_broadcast_in_dim: operand tensor<4xf32> does not broadcast to [2, 3]: operand dimension 0 has size 4 but result dimension 1 has size 3}}
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [1] : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @assertion_fails(%a: tensor<4xf32>) -> tensor<4xf32> {
  %d = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4xf32>) -> tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %ok = stablehlo.compare EQ, %d, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // expected-error @+1 {{shape assertion fails for the refined shapes: size is 4, expected 5}}
  stablehlo.custom_call @shape_assertion(%ok, %d) {error_message = "size is {0}, expected 5", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  return %a : tensor<4xf32>
}

// -----

func.func @slice_out_of_range(%a: tensor<4xf32>) -> tensor<?xf32> {
  %st = stablehlo.constant dense<[2]> : tensor<1xi64>
  %li = stablehlo.constant dense<[6]> : tensor<1xi64>
  %sd = stablehlo.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{stablehlo.real_dynamic_slice: dimension 0: slice [2:6:1] does not fit operand tensor<4xf32>}}
  %0 = stablehlo.real_dynamic_slice %a, %st, %li, %sd : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @contradiction(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
  %wa = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<?xf32>
  %wb = stablehlo.bitcast_convert %b : (tensor<5xf32>) -> tensor<?xf32>
  // expected-error @+1 {{stablehlo.add: the refined operand types (tensor<4xf32>, tensor<5xf32>) do not fit}}
  %0 = stablehlo.add %wa, %wb : tensor<?xf32>
  return %0 : tensor<?xf32>
}
