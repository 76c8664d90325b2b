// RUN: shlo-opt --shlo-legalize-chlo %s | filecheck %s
// The broadcasting ops: each operand is broadcast to the result (any valid
// broadcast_dimensions mapping), then the elementwise op applies; dynamic sizes that may
// disagree are checked by shape.cstr_broadcastable around the broadcasts.

// CHECK-LABEL: func.func @add
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.add
// CHECK:         return
func.func @add(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @and
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK:         stablehlo.and
// CHECK:         return
func.func @and(%a: tensor<4x3xi32>, %b: tensor<4xi32>) -> tensor<4x3xi32> {
  %0 = chlo.broadcast_and %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @atan2
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.atan2
// CHECK:         return
func.func @atan2(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_atan2 %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @divide
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.divide
// CHECK:         return
func.func @divide(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_divide %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @maximum
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.maximum
// CHECK:         return
func.func @maximum(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_maximum %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @minimum
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.minimum
// CHECK:         return
func.func @minimum(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_minimum %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @multiply
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.multiply
// CHECK:         return
func.func @multiply(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @next_after
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.bitcast_convert
// CHECK:         return
func.func @next_after(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_next_after %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @or
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi1>) -> tensor<4x3xi1>
// CHECK:         stablehlo.or
// CHECK:         return
func.func @or(%a: tensor<4x3xi1>, %b: tensor<4xi1>) -> tensor<4x3xi1> {
  %0 = chlo.broadcast_or %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi1>, tensor<4xi1>) -> tensor<4x3xi1>
  return %0 : tensor<4x3xi1>
}

// CHECK-LABEL: func.func @polygamma
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.multiply
// CHECK:         return
func.func @polygamma(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_polygamma %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @power
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.power
// CHECK:         return
func.func @power(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_power %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @remainder
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.remainder
// CHECK:         return
func.func @remainder(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_remainder %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @shift_left
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK:         stablehlo.shift_left
// CHECK:         return
func.func @shift_left(%a: tensor<4x3xi32>, %b: tensor<4xi32>) -> tensor<4x3xi32> {
  %0 = chlo.broadcast_shift_left %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @shift_right_arithmetic
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK:         stablehlo.shift_right_arithmetic
// CHECK:         return
func.func @shift_right_arithmetic(%a: tensor<4x3xi32>, %b: tensor<4xi32>) -> tensor<4x3xi32> {
  %0 = chlo.broadcast_shift_right_arithmetic %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @shift_right_logical
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK:         stablehlo.shift_right_logical
// CHECK:         return
func.func @shift_right_logical(%a: tensor<4x3xi32>, %b: tensor<4xi32>) -> tensor<4x3xi32> {
  %0 = chlo.broadcast_shift_right_logical %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @subtract
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.subtract
// CHECK:         return
func.func @subtract(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_subtract %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @xor
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK:         stablehlo.xor
// CHECK:         return
func.func @xor(%a: tensor<4x3xi32>, %b: tensor<4xi32>) -> tensor<4x3xi32> {
  %0 = chlo.broadcast_xor %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xi32>, tensor<4xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @zeta
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.multiply
// CHECK:         return
func.func @zeta(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_zeta %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @complex
// CHECK-NOT:     chlo.
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.complex
// CHECK:         return
func.func @complex(%a: tensor<4x3xf32>, %b: tensor<4xf32>) -> tensor<4x3xcomplex<f32>> {
  %0 = chlo.broadcast_complex %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xcomplex<f32>>
  return %0 : tensor<4x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @compare
// CHECK:         stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.compare GE, %arg0, {{.*}}, TOTALORDER
func.func @compare(%a: tensor<4x3xf32>, %b: tensor<f32>) -> tensor<4x3xi1> {
  %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GE>, compare_type = #chlo<comparison_type TOTALORDER>} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xi1>
  return %0 : tensor<4x3xi1>
}

// CHECK-LABEL: func.func @select
// CHECK-DAG:     stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-DAG:     stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK:         stablehlo.select %arg0
func.func @select(%p: tensor<4x3xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> tensor<4x3xf32> {
  %0 = "chlo.broadcast_select"(%p, %a, %b) : (tensor<4x3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Same shapes: no broadcast at all.
// CHECK-LABEL: func.func @same_shape
// CHECK-NOT:     broadcast_in_dim
// CHECK:         stablehlo.add %arg0, %arg1 : tensor<4x3xf32>
func.func @same_shape(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// A dynamic size only one operand contributes needs no check.
// CHECK-LABEL: func.func @dynamic_unchecked
// CHECK-NOT:     shape.
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg0, {{.*}}known_nonexpanding_dimensions = array<i64: 0, 1>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg1, {{.*}} dims = [1]
func.func @dynamic_unchecked(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// Two sizes meet in a dynamic dimension: the broadcasts are guarded by a check of both
// shapes laid out in the result's rank (the mapping [0] puts %b's size first).
// CHECK-LABEL: func.func @dynamic_checked
// CHECK:         %[[A:.*]] = arith.index_cast {{.*}} : tensor<2xi64> to tensor<2xindex>
// CHECK:         %[[B:.*]] = arith.index_cast {{.*}} : tensor<2xi64> to tensor<2xindex>
// CHECK:         %[[W:.*]] = shape.cstr_broadcastable %[[A]], %[[B]], {{.*}}
// CHECK:         shape.assuming %[[W]]
// CHECK:           stablehlo.dynamic_broadcast_in_dim %arg0
// CHECK:           stablehlo.dynamic_broadcast_in_dim %arg1, {{.*}} dims = [0]
// CHECK:           shape.assuming_yield
// CHECK:         stablehlo.add
func.func @dynamic_checked(%a: tensor<?x3xf32>, %b: tensor<?xf32>) -> tensor<?x3xf32> {
  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<?x3xf32>, tensor<?xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
