// RUN: shlo-opt --shlo-sink-concatenate-operands %s | filecheck %s

// A concatenate of a conditional's result and of a value computed before the conditional:
// that value is computed after it (nothing before the conditional reads it).
// CHECK-LABEL: func.func @moved
// CHECK:         %[[U:.*]] = stablehlo.add %arg0, %arg1
// CHECK:         %[[R:.*]] = "stablehlo.if"
// CHECK:         %[[Z:.*]] = stablehlo.convert %arg3
// CHECK-NEXT:    stablehlo.concatenate %[[R]], %[[Z]]
func.func @moved(%x: tensor<4xf32>, %y: tensor<4xf32>, %p: tensor<i1>, %i: tensor<4xi32>) -> tensor<8xf32> {
  %z = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %u = stablehlo.add %x, %y : tensor<4xf32>
  %r = "stablehlo.if"(%p) ({
    %s = stablehlo.add %u, %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }, {
    %s = stablehlo.multiply %u, %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %c = stablehlo.concatenate %r, %z, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// Read before the conditional too, and computed from its result through a sine: the
// concatenate reads a copy computed after the conditional from its operand read through an
// optimization barrier; the original stays for its other reader.
// CHECK-LABEL: func.func @copied
// CHECK:         %[[Z:.*]] = stablehlo.convert %arg3
// CHECK:         stablehlo.add %arg0, %[[Z]]
// CHECK:         %[[R:.*]] = "stablehlo.if"
// CHECK:         %[[B:.*]] = stablehlo.optimization_barrier %arg3
// CHECK-NEXT:    %[[Z2:.*]] = stablehlo.convert %[[B]]
// CHECK:         %[[S:.*]] = stablehlo.sine %[[R]]
// CHECK-NEXT:    stablehlo.concatenate %[[S]], %[[Z2]], %arg0
func.func @copied(%x: tensor<4xf32>, %y: tensor<4xf32>, %p: tensor<i1>, %i: tensor<4xi32>) -> tensor<12xf32> {
  %z = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %u = stablehlo.add %x, %z : tensor<4xf32>
  %r = "stablehlo.if"(%p) ({
    %s = stablehlo.add %u, %y : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }, {
    %s = stablehlo.multiply %u, %y : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %t = stablehlo.sine %r : tensor<4xf32>
  %c = stablehlo.concatenate %t, %z, %x, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
  return %c : tensor<12xf32>
}

// No conditional: nothing moves.
// CHECK-LABEL: func.func @no_conditional
// CHECK:         stablehlo.convert
// CHECK-NEXT:    stablehlo.add
// CHECK-NEXT:    stablehlo.concatenate
func.func @no_conditional(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<8xf32> {
  %z = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %u = stablehlo.add %x, %x : tensor<4xf32>
  %c = stablehlo.concatenate %u, %z, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
