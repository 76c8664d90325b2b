// RUN: shlo-opt --shlo-slice-before-elementwise %s | filecheck %s

// Two words of a flattened clamp-and-convert: the argument is reshaped and sliced, and the
// clamp (scalar bounds kept) and convert run on the two words.
// CHECK-LABEL: func.func @words
// CHECK:         %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<8x17x8x5xf32>) -> tensor<5440xf32>
// CHECK:         %[[S:.*]] = stablehlo.slice %[[R]] [0:2] : (tensor<5440xf32>) -> tensor<2xf32>
// CHECK:         %[[C:.*]] = stablehlo.clamp %{{.*}}, %[[S]], %{{.*}} : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK:         %[[I:.*]] = stablehlo.convert %[[C]] : (tensor<2xf32>) -> tensor<2xi64>
// CHECK:         return %[[I]]
// CHECK-NOT:     tensor<8x17x8x5xi64>
func.func @words(%x: tensor<8x17x8x5xf32>) -> tensor<2xi64> {
  %lo = stablehlo.constant dense<-9.0e+18> : tensor<f32>
  %hi = stablehlo.constant dense<9.0e+18> : tensor<f32>
  %c = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<8x17x8x5xf32>, tensor<f32>) -> tensor<8x17x8x5xf32>
  %i = stablehlo.convert %c : (tensor<8x17x8x5xf32>) -> tensor<8x17x8x5xi64>
  %r = stablehlo.reshape %i : (tensor<8x17x8x5xi64>) -> tensor<5440xi64>
  %s = stablehlo.slice %r [0:2] : (tensor<5440xi64>) -> tensor<2xi64>
  return %s : tensor<2xi64>
}

// A diamond (x used by both sides of an add) is sliced once; a broadcast scalar and a splat
// constant become ones of the slice's shape; a strided slice keeps its stride.
// CHECK-LABEL: func.func @diamond
// CHECK:         %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<4x64xf32>) -> tensor<256xf32>
// CHECK:         %[[S:.*]] = stablehlo.slice %[[R]] [0:8:2] : (tensor<256xf32>) -> tensor<4xf32>
// CHECK-NOT:     stablehlo.slice
// CHECK:         %[[N:.*]] = stablehlo.negate %[[S]] : tensor<4xf32>
// CHECK:         %[[A:.*]] = stablehlo.add %[[S]], %[[N]] : tensor<4xf32>
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[M:.*]] = stablehlo.multiply %[[A]], %[[B]] : tensor<4xf32>
// CHECK:         %[[K:.*]] = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK:         %[[T:.*]] = stablehlo.maximum %[[M]], %[[K]] : tensor<4xf32>
// CHECK:         return %[[T]]
func.func @diamond(%x: tensor<4x64xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  %n = stablehlo.negate %x : tensor<4x64xf32>
  %a = stablehlo.add %x, %n : tensor<4x64xf32>
  %b = stablehlo.broadcast_in_dim %y, dims = [] : (tensor<f32>) -> tensor<4x64xf32>
  %m = stablehlo.multiply %a, %b : tensor<4x64xf32>
  %k = stablehlo.constant dense<3.0> : tensor<4x64xf32>
  %t = stablehlo.maximum %m, %k : tensor<4x64xf32>
  %r = stablehlo.reshape %t : (tensor<4x64xf32>) -> tensor<256xf32>
  %s = stablehlo.slice %r [0:8:2] : (tensor<256xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// The convert is also returned whole and the slice keeps more than half of it: computing the
// slice's part again would not pay, so nothing changes; nor for a slice of a non-elementwise
// value (a transpose). A small slice without a reshape converts its two elements.
// CHECK-LABEL: func.func @declined
// CHECK:         %[[I:.*]] = stablehlo.convert %arg0 : (tensor<4x64xf32>) -> tensor<4x64xi32>
// CHECK:         %[[R:.*]] = stablehlo.reshape %[[I]] : (tensor<4x64xi32>) -> tensor<256xi32>
// CHECK:         stablehlo.slice %[[R]] [0:200]
// CHECK:         stablehlo.transpose
// CHECK:         %[[D:.*]] = stablehlo.slice %arg0 [0:1, 0:2] : (tensor<4x64xf32>) -> tensor<1x2xf32>
// CHECK:         stablehlo.convert %[[D]] : (tensor<1x2xf32>) -> tensor<1x2xi32>
func.func @declined(%x: tensor<4x64xf32>) -> (tensor<4x64xi32>, tensor<200xi32>, tensor<2xi32>, tensor<1x2xi32>) {
  %i = stablehlo.convert %x : (tensor<4x64xf32>) -> tensor<4x64xi32>
  %r = stablehlo.reshape %i : (tensor<4x64xi32>) -> tensor<256xi32>
  %s = stablehlo.slice %r [0:200] : (tensor<256xi32>) -> tensor<200xi32>
  %t = stablehlo.transpose %i, dims = [1, 0] : (tensor<4x64xi32>) -> tensor<64x4xi32>
  %tr = stablehlo.reshape %t : (tensor<64x4xi32>) -> tensor<256xi32>
  %ts = stablehlo.slice %tr [0:2] : (tensor<256xi32>) -> tensor<2xi32>
  %d = stablehlo.slice %i [0:1, 0:2] : (tensor<4x64xi32>) -> tensor<1x2xi32>
  return %i, %s, %ts, %d : tensor<4x64xi32>, tensor<200xi32>, tensor<2xi32>, tensor<1x2xi32>
}

// A rank-0 chain (clamp of scalars) reshaped to one element: every operand is reshaped and
// sliced, the scalar bounds too (shlo-fuzz seed 30 program 64 failed to verify before).
// CHECK-LABEL: func.func @scalar
// CHECK:         %[[X:.*]] = stablehlo.reshape %arg0 : (tensor<f16>) -> tensor<1xf16>
// CHECK:         %[[XS:.*]] = stablehlo.slice %[[X]] [0:0] : (tensor<1xf16>) -> tensor<0xf16>
// CHECK:         %[[C:.*]] = stablehlo.clamp %{{.*}}, %[[XS]], %{{.*}} : tensor<0xf16>
// CHECK:         stablehlo.convert %[[C]] : (tensor<0xf16>) -> tensor<0xui32>
func.func @scalar(%x: tensor<f16>) -> tensor<0xui32> {
  %lo = stablehlo.constant dense<0.0> : tensor<f16>
  %hi = stablehlo.constant dense<6.5504e+04> : tensor<f16>
  %c = stablehlo.clamp %lo, %x, %hi : tensor<f16>
  %u = stablehlo.convert %c : (tensor<f16>) -> tensor<ui32>
  %r = stablehlo.reshape %u : (tensor<ui32>) -> tensor<1xui32>
  %s = stablehlo.slice %r [0:0] : (tensor<1xui32>) -> tensor<0xui32>
  return %s : tensor<0xui32>
}

// A boolean argument converted and sliced keeps its convert whole (an i1 slice feeding a
// convolution's kernel failed to compile in IREE; seed 30 program 614), computed in a
// dispatch of its own (fused into the slice's reader it went whole into that dispatch:
// 32 MiB of cpu stack at 4M elements, a vulkan compile without end; seed 108 program 85).
// CHECK-LABEL: func.func @boolean
// CHECK:         %[[C:.*]] = stablehlo.convert %arg0 : (tensor<3x5x3xi1>) -> tensor<3x5x3xi32>
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[C]]
// CHECK:         %[[R:.*]] = stablehlo.reshape %[[F]] : (tensor<3x5x3xi32>) -> tensor<45xi32>
// CHECK:         stablehlo.slice %[[R]] [0:15]
func.func @boolean(%x: tensor<3x5x3xi1>) -> tensor<15xi32> {
  %c = stablehlo.convert %x : (tensor<3x5x3xi1>) -> tensor<3x5x3xi32>
  %r = stablehlo.reshape %c : (tensor<3x5x3xi32>) -> tensor<45xi32>
  %s = stablehlo.slice %r [0:15] : (tensor<45xi32>) -> tensor<15xi32>
  return %s : tensor<15xi32>
}
