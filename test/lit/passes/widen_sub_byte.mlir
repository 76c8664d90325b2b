// RUN: shlo-opt --shlo-widen-sub-byte %s | filecheck %s

// Signed i4: bytes inside, sign-extended again (<< 4, >> 4) after ops that can overflow; the
// signature keeps i4 (converts at entry and return); a logical shift sees the 4-bit pattern.
// CHECK-LABEL: func.func @signed(%arg0: tensor<5xi4>, %arg1: tensor<5xi4>) -> tensor<5xi4>
// CHECK:         %[[A:.*]] = stablehlo.convert %arg0 : (tensor<5xi4>) -> tensor<5xi8>
// CHECK:         %[[B:.*]] = stablehlo.convert %arg1 : (tensor<5xi4>) -> tensor<5xi8>
// CHECK:         %[[C:.*]] = stablehlo.constant dense<[1, 2, 3, -8, 7]> : tensor<5xi8>
// CHECK:         %[[SUM:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<5xi8>
// CHECK:         %[[FOUR:.*]] = stablehlo.constant dense<4> : tensor<5xi8>
// CHECK:         %[[UP:.*]] = stablehlo.shift_left %[[SUM]], %[[FOUR]]
// CHECK:         %[[WRAPPED:.*]] = stablehlo.shift_right_arithmetic %[[UP]], %[[FOUR]]
// CHECK:         %[[MAX:.*]] = stablehlo.maximum %[[WRAPPED]], %[[C]] : tensor<5xi8>
// CHECK:         %[[MASK:.*]] = stablehlo.constant dense<15> : tensor<5xi8>
// CHECK:         %[[BITS:.*]] = stablehlo.and %[[MAX]], %[[MASK]]
// CHECK:         stablehlo.shift_right_logical %[[BITS]]
// CHECK:         %[[OUT:.*]] = stablehlo.convert {{.*}} : (tensor<5xi8>) -> tensor<5xi4>
// CHECK:         return %[[OUT]] : tensor<5xi4>
func.func @signed(%a: tensor<5xi4>, %b: tensor<5xi4>) -> tensor<5xi4> {
  %c = stablehlo.constant dense<[1, 2, 3, -8, 7]> : tensor<5xi4>
  %0 = stablehlo.add %a, %b : tensor<5xi4>
  %1 = stablehlo.maximum %0, %c : tensor<5xi4>
  %2 = stablehlo.shift_right_logical %1, %c : tensor<5xi4>
  return %2 : tensor<5xi4>
}

// Unsigned ui2: wrapped with a mask; no wrap after ops that stay in range (and, compare).
// CHECK-LABEL: func.func @unsigned
// CHECK:         stablehlo.subtract {{.*}} : tensor<3xui8>
// CHECK-NEXT:    stablehlo.constant dense<3> : tensor<3xui8>
// CHECK-NEXT:    stablehlo.and
// CHECK-NEXT:    stablehlo.and {{.*}} : tensor<3xui8>
// CHECK-NEXT:    stablehlo.compare  LT, {{.*}} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
func.func @unsigned(%a: tensor<3xui2>, %b: tensor<3xui2>) -> (tensor<3xui2>, tensor<3xi1>) {
  %0 = stablehlo.subtract %a, %b : tensor<3xui2>
  %1 = stablehlo.and %0, %b : tensor<3xui2>
  %2 = stablehlo.compare LT, %1, %a : (tensor<3xui2>, tensor<3xui2>) -> tensor<3xi1>
  return %1, %2 : tensor<3xui2>, tensor<3xi1>
}

// Negative: nothing sub-byte, nothing changes.
// CHECK-LABEL: func.func @bytes
// CHECK-NEXT:    stablehlo.add %arg0, %arg0 : tensor<5xi8>
// CHECK-NEXT:    return
func.func @bytes(%a: tensor<5xi8>) -> tensor<5xi8> {
  %0 = stablehlo.add %a, %a : tensor<5xi8>
  return %0 : tensor<5xi8>
}

// A bitcast with a sub-byte side: two nibbles into a byte, the lowest first (element 0 holds
// the low bits): each field masked from the byte it is computed in, shifted by 4 x its index
// and summed in an unsigned container, which is the byte's pattern.
// CHECK-LABEL: func.func @nibbles_to_byte
// CHECK:         %[[WIDE:.*]] = stablehlo.convert %arg0 : (tensor<3x2xi4>) -> tensor<3x2xi8>
// CHECK:         %[[INDEX:.*]] = stablehlo.iota dim = 1 : tensor<3x2xui8>
// CHECK:         %[[SHIFT:.*]] = stablehlo.multiply %[[INDEX]], %{{.*}} : tensor<3x2xui8>
// CHECK:         %[[BITS:.*]] = stablehlo.convert %[[WIDE]] : (tensor<3x2xi8>) -> tensor<3x2xui8>
// CHECK:         %[[FIELD:.*]] = stablehlo.and %[[BITS]], %{{.*}} : tensor<3x2xui8>
// CHECK:         %[[PLACED:.*]] = stablehlo.shift_left %[[FIELD]], %[[SHIFT]]
// CHECK:         %[[SUM:.*]] = stablehlo.reduce(%[[PLACED]] init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// CHECK:         stablehlo.bitcast_convert %[[SUM]] : (tensor<3xui8>) -> tensor<3xi8>
// CHECK-NOT:     xi4> -> tensor<3xi8>
func.func @nibbles_to_byte(%a: tensor<3x2xi4>) -> tensor<3xi8> {
  %0 = stablehlo.bitcast_convert %a : (tensor<3x2xi4>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}
