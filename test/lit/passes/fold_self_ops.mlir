// RUN: shlo-opt --shlo-fold-self-ops %s | filecheck %s

// An integer x - x and x <= x on a dynamic shape: the constants they are, broadcast to x's size
// (IREE 3.13 would fold them to constants of dynamic type and reject those).
// CHECK-LABEL: func.func @integer_self_ops
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[TRUE:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK-DAG:     %[[N:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         stablehlo.dynamic_broadcast_in_dim %[[ZERO]], %{{.*}}, dims = [] : (tensor<i32>, tensor<1xi64>) -> tensor<?xi32>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %[[TRUE]], %{{.*}}, dims = [] : (tensor<i1>, tensor<1xi64>) -> tensor<?xi1>
// CHECK-NOT:     stablehlo.subtract
// CHECK-NOT:     stablehlo.compare
func.func @integer_self_ops(%x: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi1>) {
  %0 = stablehlo.subtract %x, %x : tensor<?xi32>
  %1 = stablehlo.compare LE, %x, %x, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  return %0, %1 : tensor<?xi32>, tensor<?xi1>
}

// Unsigned: the size is read from a signless convert (IREE 3.13 cannot read an unsigned
// tensor's size); NE gives false.
// CHECK-LABEL: func.func @unsigned_not_equal
// CHECK-DAG:     %[[FALSE:.*]] = stablehlo.constant dense<false> : tensor<i1>
// CHECK-DAG:     %[[S:.*]] = stablehlo.convert %arg0 : (tensor<?x4xui8>) -> tensor<?x4xi8>
// CHECK-DAG:     stablehlo.get_dimension_size %[[S]], dim = 0
// CHECK:         stablehlo.dynamic_broadcast_in_dim %[[FALSE]], %{{.*}}, dims = [] : (tensor<i1>, tensor<2xi64>) -> tensor<?x4xi1>
func.func @unsigned_not_equal(%x: tensor<?x4xui8>) -> tensor<?x4xi1> {
  %0 = stablehlo.compare NE, %x, %x, UNSIGNED : (tensor<?x4xui8>, tensor<?x4xui8>) -> tensor<?x4xi1>
  return %0 : tensor<?x4xi1>
}

// A static shape: the constants themselves; xor of booleans gives false.
// CHECK-LABEL: func.func @static_self_ops
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<64xi32>
// CHECK-DAG:     %[[FALSE:.*]] = stablehlo.constant dense<false> : tensor<4x2xi1>
// CHECK-DAG:     %[[TRUE:.*]] = stablehlo.constant dense<true> : tensor<64xi1>
// CHECK:         return %[[ZERO]], %[[ZERO]], %[[FALSE]], %[[TRUE]]
func.func @static_self_ops(%x: tensor<64xi32>, %b: tensor<4x2xi1>) -> (tensor<64xi32>, tensor<64xi32>, tensor<4x2xi1>, tensor<64xi1>) {
  %0 = stablehlo.subtract %x, %x : tensor<64xi32>
  %1 = stablehlo.xor %x, %x : tensor<64xi32>
  %2 = stablehlo.xor %b, %b : tensor<4x2xi1>
  %3 = stablehlo.compare GE, %x, %x, SIGNED : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
  return %0, %1, %2, %3 : tensor<64xi32>, tensor<64xi32>, tensor<4x2xi1>, tensor<64xi1>
}

// Left alone: floats (x == x is false for NaN, x - x is NaN for inf), two different values.
// CHECK-LABEL: func.func @left_alone
// CHECK:         stablehlo.compare EQ, %arg0, %arg0, FLOAT
// CHECK:         stablehlo.subtract %arg1, %arg1 : tensor<4xf32>
// CHECK:         stablehlo.compare LT, %arg2, %arg3
// CHECK-NOT:     dynamic_broadcast_in_dim
func.func @left_alone(%f: tensor<?xf32>, %s: tensor<4xf32>, %a: tensor<?xi32>, %b: tensor<?xi32>) -> (tensor<?xi1>, tensor<4xf32>, tensor<?xi1>) {
  %0 = stablehlo.compare EQ, %f, %f, FLOAT : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
  %1 = stablehlo.subtract %s, %s : tensor<4xf32>
  %2 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  return %0, %1, %2 : tensor<?xi1>, tensor<4xf32>, tensor<?xi1>
}
