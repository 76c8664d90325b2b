// RUN: shlo-opt --shlo-legalize-e8m0 %s | filecheck %s

// To f8E8M0FNU on the bits: exponent field, one more from half a binade, NaN for the rest.
// CHECK-LABEL: func.func @to_e8m0
// CHECK:         %[[BITS:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK:         stablehlo.shift_right_logical %[[BITS]]
// CHECK:         %[[U8:.*]] = stablehlo.convert %{{.*}} : (tensor<4xi32>) -> tensor<4xui8>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.bitcast_convert %[[U8]] : (tensor<4xui8>) -> tensor<4xf8E8M0FNU>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     stablehlo.convert {{.*}} -> tensor<4xf8E8M0FNU>
func.func @to_e8m0(%x: tensor<4xf32>) -> tensor<4xf8E8M0FNU> {
  %r = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  return %r : tensor<4xf8E8M0FNU>
}

// From f8E8M0FNU: the byte shifted into an f32 exponent (0: 2^-127, 255: NaN), then f16.
// CHECK-LABEL: func.func @from_e8m0
// CHECK:         %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xf8E8M0FNU>) -> tensor<4xui8>
// CHECK:         %[[W:.*]] = stablehlo.convert %[[B]] : (tensor<4xui8>) -> tensor<4xui32>
// CHECK:         stablehlo.shift_left %[[W]]
// CHECK-DAG:     stablehlo.constant dense<4194304> : tensor<4xui32>
// CHECK-DAG:     stablehlo.constant dense<2143289344> : tensor<4xui32>
// CHECK:         %[[F:.*]] = stablehlo.bitcast_convert {{.*}} : (tensor<4xui32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.convert %[[F]] : (tensor<4xf32>) -> tensor<4xf16>
func.func @from_e8m0(%x: tensor<4xf8E8M0FNU>) -> tensor<4xf16> {
  %r = stablehlo.convert %x : (tensor<4xf8E8M0FNU>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// Arithmetic computes in f32 between the two conversions.
// CHECK-LABEL: func.func @multiply
// CHECK:         %[[X:.*]] = stablehlo.bitcast_convert {{.*}} : (tensor<4xui32>) -> tensor<4xf32>
// CHECK:         %[[Y:.*]] = stablehlo.bitcast_convert {{.*}} : (tensor<4xui32>) -> tensor<4xf32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %[[X]], %[[Y]] : tensor<4xf32>
// CHECK:         stablehlo.bitcast_convert %[[P]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xui8>) -> tensor<4xf8E8M0FNU>
func.func @multiply(%x: tensor<4xf8E8M0FNU>, %y: tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU> {
  %r = stablehlo.multiply %x, %y : tensor<4xf8E8M0FNU>
  return %r : tensor<4xf8E8M0FNU>
}

// Negative: ops that only move values keep the type.
// CHECK-LABEL: func.func @moves
// CHECK-NEXT:    stablehlo.reshape %arg0 : (tensor<4xf8E8M0FNU>) -> tensor<2x2xf8E8M0FNU>
// CHECK-NEXT:    stablehlo.transpose
// CHECK-NEXT:    return
func.func @moves(%x: tensor<4xf8E8M0FNU>) -> tensor<2x2xf8E8M0FNU> {
  %r = stablehlo.reshape %x : (tensor<4xf8E8M0FNU>) -> tensor<2x2xf8E8M0FNU>
  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<2x2xf8E8M0FNU>) -> tensor<2x2xf8E8M0FNU>
  return %t : tensor<2x2xf8E8M0FNU>
}

// Negative: other 8-bit floats are IREE's.
// CHECK-LABEL: func.func @other_f8
// CHECK-NEXT:    stablehlo.multiply %arg0, %arg0 : tensor<4xf8E4M3FN>
func.func @other_f8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %r = stablehlo.multiply %x, %x : tensor<4xf8E4M3FN>
  return %r : tensor<4xf8E4M3FN>
}
