// RUN: shlo-opt --shlo-reverse-before-strided-slices %s | filecheck %s
// RUN: shlo-opt --shlo-reverse-before-strided-slices --shlo-reverse-before-strided-slices %s | filecheck %s

// A reverse of a strided slice: the strided slice of the reversed operand, the same elements
// (x[3], x[5], x[7] backwards are x[8], x[10], x[12] of the reversed 16).
// CHECK-LABEL: func.func @strided
// CHECK:         %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] : tensor<16xbf16>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.slice %[[R]] [8:13:2] : (tensor<16xbf16>) -> tensor<3xbf16>
// CHECK-NEXT:    return %[[S]]
func.func @strided(%x: tensor<16xbf16>) -> tensor<3xbf16> {
  %0 = stablehlo.slice %x [3:9:2] : (tensor<16xbf16>) -> tensor<3xbf16>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<3xbf16>
  return %1 : tensor<3xbf16>
}

// Only the reversed dimensions move; a strided dimension that is not reversed keeps its slice.
// CHECK-LABEL: func.func @two_dims
// CHECK:         %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] : tensor<64x1024xf32>
// CHECK-NEXT:    stablehlo.slice %[[R]] [11:62:2, 3:1003:2] : (tensor<64x1024xf32>) -> tensor<26x500xf32>
func.func @two_dims(%x: tensor<64x1024xf32>) -> tensor<26x500xf32> {
  %0 = stablehlo.slice %x [2:53:2, 3:1003:2] : (tensor<64x1024xf32>) -> tensor<26x500xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<26x500xf32>
  return %1 : tensor<26x500xf32>
}

// Through a transpose: the reverse moves below it, then below the slice.
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[R:.*]] = stablehlo.reverse %arg0, dims = [0] : tensor<64x1024xf32>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.slice %[[R]] [0:64, 3:1003:2]
// CHECK-NEXT:    %[[T:.*]] = stablehlo.transpose %[[S]], dims = [1, 0]
// CHECK-NEXT:    return %[[T]]
func.func @transposed(%x: tensor<64x1024xf32>) -> tensor<500x64xf32> {
  %0 = stablehlo.slice %x [0:64, 3:1003:2] : (tensor<64x1024xf32>) -> tensor<64x500xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<64x500xf32>) -> tensor<500x64xf32>
  %2 = stablehlo.reverse %1, dims = [1] : tensor<500x64xf32>
  return %2 : tensor<500x64xf32>
}

// Unit strides, and a transpose of an operand that is no slice: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK:         stablehlo.slice %arg0 [3:9] : (tensor<16xf32>) -> tensor<6xf32>
// CHECK-NEXT:    stablehlo.reverse
// CHECK:         stablehlo.transpose %arg1
// CHECK-NEXT:    stablehlo.reverse
func.func @unchanged(%x: tensor<16xf32>, %y: tensor<4x8xf32>) -> (tensor<6xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.slice %x [3:9] : (tensor<16xf32>) -> tensor<6xf32>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<6xf32>
  %2 = stablehlo.transpose %y, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %3 = stablehlo.reverse %2, dims = [0] : tensor<8x4xf32>
  return %1, %3 : tensor<6xf32>, tensor<8x4xf32>
}

// Through a bitcast_convert of the same width (shlo-legalize-integer-ops' signless view of
// unsigned values): the bitcast moves to the slice's operand, the reverse reads signless values.
// CHECK-LABEL: func.func @bitcast
// CHECK:         %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<1024xui8>) -> tensor<1024xi8>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reverse %[[B]], dims = [0] : tensor<1024xi8>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.slice %[[R]] [1:1022:5] : (tensor<1024xi8>) -> tensor<205xi8>
// CHECK-NEXT:    return %[[S]]
func.func @bitcast(%x: tensor<1024xui8>) -> tensor<205xi8> {
  %0 = stablehlo.slice %x [2:1024:5] : (tensor<1024xui8>) -> tensor<205xui8>
  %1 = stablehlo.bitcast_convert %0 : (tensor<205xui8>) -> tensor<205xi8>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<205xi8>
  return %2 : tensor<205xi8>
}

// A reverse of a dynamic_slice whose rows lie apart (a column): the dynamic_slice of the
// reverse, the reversed dimension's start clamped to [0, 6 - 5] and mirrored, the other kept.
// CHECK-LABEL: func.func @dynamic_column
// CHECK-DAG:     %[[TOP:.*]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<i32>
// CHECK:         %[[C:.*]] = stablehlo.clamp %[[ZERO]], %arg1, %[[TOP]]
// CHECK:         %[[M:.*]] = stablehlo.subtract %[[TOP]], %[[C]]
// CHECK:         %[[R:.*]] = stablehlo.reverse %arg0, dims = [0]
// CHECK:         stablehlo.dynamic_slice %[[R]], %[[M]], %arg2, sizes = [5, 1]
// CHECK-NOT:     stablehlo.reverse
func.func @dynamic_column(%x: tensor<6x8xbf16>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<5x1xbf16> {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [5, 1] : (tensor<6x8xbf16>, tensor<i32>, tensor<i32>) -> tensor<5x1xbf16>
  %1 = stablehlo.reverse %0, dims = [0] : tensor<5x1xbf16>
  return %1 : tensor<5x1xbf16>
}
