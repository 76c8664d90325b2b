// RUN: shlo-opt --shlo-legalize-integer-ops %s | filecheck %s

// Boolean add is OR in the spec.
// CHECK-LABEL: func.func @bool_add
// CHECK:         %[[R:.*]] = stablehlo.or %arg0, %arg1 : tensor<4xi1>
// CHECK-NOT:     stablehlo.add
// CHECK:         return %[[R]]
func.func @bool_add(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = stablehlo.add %a, %b : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// Unsigned reverse runs on the signless type of the same width.
// CHECK-LABEL: func.func @unsigned_reverse
// CHECK:         %[[S:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<2x3xui8>) -> tensor<2x3xi8>
// CHECK:         %[[R:.*]] = stablehlo.reverse %[[S]], dims = [0, 1] : tensor<2x3xi8>
// CHECK:         %[[U:.*]] = stablehlo.bitcast_convert %[[R]] : (tensor<2x3xi8>) -> tensor<2x3xui8>
// CHECK:         return %[[U]]
func.func @unsigned_reverse(%x: tensor<2x3xui8>) -> tensor<2x3xui8> {
  %0 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// A reverse that moves nothing (rank 0, found by shlo-fuzz, or dimensions of size 1; IREE 3.13
// failed to legalize the rank-0 one) is its operand, of any type; a dynamic dimension is kept.
// CHECK-LABEL: func.func @identity_reverse
// CHECK-NOT:     stablehlo.reverse %arg0
// CHECK-NOT:     stablehlo.reverse %arg1
// CHECK:         stablehlo.reverse %arg2, dims = [0] : tensor<?xf32>
// CHECK:         return %arg0, %arg1,
func.func @identity_reverse(%a: tensor<ui32>, %b: tensor<1x4xf32>, %c: tensor<?xf32>) -> (tensor<ui32>, tensor<1x4xf32>, tensor<?xf32>) {
  %0 = stablehlo.reverse %a, dims = [] : tensor<ui32>
  %1 = stablehlo.reverse %b, dims = [0] : tensor<1x4xf32>
  %2 = stablehlo.reverse %c, dims = [0] : tensor<?xf32>
  return %0, %1, %2 : tensor<ui32>, tensor<1x4xf32>, tensor<?xf32>
}

// Negative: integer add and signed reverse are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     stablehlo.or
// CHECK-NOT:     stablehlo.bitcast_convert
// CHECK:         stablehlo.add %arg0, %arg0 : tensor<3xi32>
// CHECK:         stablehlo.reverse %arg0, dims = [0] : tensor<3xi32>
func.func @left_alone(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = stablehlo.add %x, %x : tensor<3xi32>
  %1 = stablehlo.reverse %x, dims = [0] : tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}

// A product of booleans into numbers: its operands as selects of 1 and 0 in the result's type;
// a product of booleans into booleans is left alone.
// CHECK-LABEL: func.func @bool_dot
// CHECK-DAG:     %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<8x16xf32>
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
// CHECK:         %[[L:.*]] = stablehlo.select %arg0, %[[ONE]], %[[ZERO]] : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK:         %[[R:.*]] = stablehlo.select %arg1, %{{.*}}, %{{.*}} : tensor<16xi1>, tensor<16xf32>
// CHECK:         stablehlo.dot_general %[[L]], %[[R]], contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8xf32>
// CHECK:         stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xi1>, tensor<16xi1>) -> tensor<8xi1>
func.func @bool_dot(%a: tensor<8x16xi1>, %b: tensor<16xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xi1>, tensor<16xi1>) -> tensor<8xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xi1>, tensor<16xi1>) -> tensor<8xi1>
  return %0, %1 : tensor<8xf32>, tensor<8xi1>
}

// A grouped convolution of ui8 by a ui8 constant: on i8 between bitcast_converts; an ungrouped
// one is left alone.
// CHECK-LABEL: func.func @grouped_unsigned_convolution
// CHECK:         %[[X:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<1x5x3xui8>) -> tensor<1x5x3xi8>
// CHECK:         %[[K:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<2x1x6xui8>) -> tensor<2x1x6xi8>
// CHECK:         %[[C:.*]] = stablehlo.convolution(%[[X]], %[[K]]) {{.*}} feature_group_count = 3 {{.*}} -> tensor<1x4x6xi8>
// CHECK:         stablehlo.bitcast_convert %[[C]] : (tensor<1x4x6xi8>) -> tensor<1x4x6xui8>
// CHECK:         stablehlo.convolution(%arg0, %{{.*}}) {{.*}} -> tensor<1x4x6xui8>
func.func @grouped_unsigned_convolution(%x: tensor<1x5x3xui8>) -> (tensor<1x4x6xui8>, tensor<1x4x6xui8>) {
  %k = stablehlo.constant dense<7> : tensor<2x1x6xui8>
  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x5x3xui8>, tensor<2x1x6xui8>) -> tensor<1x4x6xui8>
  %m = stablehlo.constant dense<7> : tensor<2x3x6xui8>
  %s = stablehlo.convolution(%x, %m) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x3xui8>, tensor<2x3x6xui8>) -> tensor<1x4x6xui8>
  return %r, %s : tensor<1x4x6xui8>, tensor<1x4x6xui8>
}
