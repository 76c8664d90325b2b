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
