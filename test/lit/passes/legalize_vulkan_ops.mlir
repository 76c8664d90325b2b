// RUN: shlo-opt --shlo-legalize-vulkan-ops %s | filecheck %s

// bf16 iota counts in f32 and rounds to bf16 on the bits: the top 16 bits of the f32 plus the
// round-to-nearest-even carry (a NaN would keep its top bits, made quiet). (Longer than 4096:
// a shorter 1-D iota becomes a constant, below.)
// CHECK-LABEL: func.func @iota_bf16
// CHECK:         %[[I:.*]] = stablehlo.iota dim = 0 : tensor<5000xf32>
// CHECK:         %[[B:.*]] = stablehlo.bitcast_convert %[[I]] : (tensor<5000xf32>) -> tensor<5000xui32>
// CHECK:         %[[HIGH:.*]] = stablehlo.shift_right_logical %[[B]]
// CHECK:         %[[TOP:.*]] = stablehlo.shift_right_logical
// CHECK:         %[[R:.*]] = stablehlo.select %{{.*}}, %{{.*}}, %[[TOP]] : tensor<5000xi1>, tensor<5000xui32>
// CHECK:         %[[H:.*]] = stablehlo.convert %[[R]] : (tensor<5000xui32>) -> tensor<5000xui16>
// CHECK:         stablehlo.bitcast_convert %[[H]] : (tensor<5000xui16>) -> tensor<5000xbf16>
func.func @iota_bf16() -> tensor<5000xbf16> {
  %r = stablehlo.iota dim = 0 : tensor<5000xbf16>
  return %r : tensor<5000xbf16>
}

// An iota of rank 2 is a broadcast of a 1-D one, and a 1-D iota of up to 4096 elements is a
// constant (computed in a reduce's dispatch, an iota failed to compile at 16, 48 and 64).
// CHECK-LABEL: func.func @iota_2d
// CHECK:         %[[C:.*]] = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// CHECK:         stablehlo.broadcast_in_dim %[[C]], dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK-NOT:     stablehlo.iota
func.func @iota_2d() -> tensor<4x3xi32> {
  %r = stablehlo.iota dim = 0 : tensor<4x3xi32>
  return %r : tensor<4x3xi32>
}

// A min reduce over signed integers runs over unsigned ones (x xor the sign bit), and back:
// Vulkan padded the signed one with the unsigned identity (jnp.min of 24 positive ints: -1).
// CHECK-LABEL: func.func @signed_min
// CHECK:         %[[X:.*]] = stablehlo.xor %arg0, %{{.*}} : tensor<24xi32>
// CHECK:         %[[U:.*]] = stablehlo.bitcast_convert %[[X]] : (tensor<24xi32>) -> tensor<24xui32>
// CHECK:         stablehlo.reduce(%[[U]] init: %{{.*}}) applies stablehlo.minimum across dimensions = [0] : (tensor<24xui32>, tensor<ui32>) -> tensor<ui32>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<ui32>) -> tensor<i32>
// CHECK:         stablehlo.xor
func.func @signed_min(%x: tensor<24xi32>) -> tensor<i32> {
  %init = stablehlo.constant dense<2147483647> : tensor<i32>
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.minimum across dimensions = [0] : (tensor<24xi32>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// A sum of negated values is the negation of the sum (IREE folded the negate into the
// combiner, which then had no identity).
// CHECK-LABEL: func.func @sum_of_negation
// CHECK:         %[[I:.*]] = stablehlo.negate %arg1 : tensor<f32>
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 init: %[[I]]) applies stablehlo.add across dimensions = [1]
// CHECK:         stablehlo.negate %[[S]] : tensor<12xf32>
func.func @sum_of_negation(%x: tensor<12x32xf32>, %init: tensor<f32>) -> tensor<12xf32> {
  %n = stablehlo.negate %x : tensor<12x32xf32>
  %r = stablehlo.reduce(%n init: %init) applies stablehlo.add across dimensions = [1] : (tensor<12x32xf32>, tensor<f32>) -> tensor<12xf32>
  return %r : tensor<12xf32>
}

// A reduce over an outer axis is read through a fusion barrier (x - mean(x, axis=0) read wrong
// values with its users fused into the reduction); one over the innermost axis broadcast back
// along its rows is not.
// CHECK-LABEL: func.func @outer_axis
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [0]
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[S]] : tensor<3xf32> -> tensor<3xf32>
// CHECK:         %[[P:.*]] = stablehlo.add %[[F]], %{{.*}} : tensor<3xf32>
// CHECK:         stablehlo.broadcast_in_dim %[[P]], dims = [1]
// CHECK:         %[[T:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// CHECK-NOT:     compute_barrier.start %[[T]]
// CHECK-LABEL: func.func @row_sums_scaling_columns
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[S]] : tensor<4xf32> -> tensor<4xf32>
// CHECK:         %[[P:.*]] = stablehlo.add %[[F]], %{{.*}} : tensor<4xf32>
// CHECK:         stablehlo.negate %[[P]]
func.func @outer_axis(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %d = stablehlo.subtract %x, %b : tensor<4x3xf32>
  %t = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  return %d, %t : tensor<4x3xf32>, tensor<4xf32>
}

// A row reduction whose result scales columns (broadcast along the other dimension) goes
// through the barrier too (the signs of R's diagonal scaling Q's columns in shlo's SVD).
func.func @row_sums_scaling_columns(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %n = stablehlo.negate %s : tensor<4xf32>
  %b = stablehlo.broadcast_in_dim %n, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %d = stablehlo.multiply %x, %b : tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}

// Negative: float to bf16 converts compile.
// CHECK-LABEL: func.func @f32_to_bf16
// CHECK-NEXT:    stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xbf16>
func.func @f32_to_bf16(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %r = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// f16 iota compiles for Vulkan; at this length it is a constant, as every short 1-D iota.
// CHECK-LABEL: func.func @iota_f16
// CHECK-NEXT:    stablehlo.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf16>
func.func @iota_f16() -> tensor<4xf16> {
  %r = stablehlo.iota dim = 0 : tensor<4xf16>
  return %r : tensor<4xf16>
}

// 64-bit clz: clz(high) or 32 + clz(low) when the high half is zero.
// CHECK-LABEL: func.func @clz_i64
// CHECK:         %[[U:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xi64>) -> tensor<4xui64>
// CHECK:         %[[SH:.*]] = stablehlo.shift_right_logical %[[U]]
// CHECK:         %[[HI:.*]] = stablehlo.convert %[[SH]] : (tensor<4xui64>) -> tensor<4xui32>
// CHECK:         %[[AND:.*]] = stablehlo.and %[[U]]
// CHECK:         %[[LO:.*]] = stablehlo.convert %[[AND]] : (tensor<4xui64>) -> tensor<4xui32>
// CHECK:         %[[CH:.*]] = stablehlo.count_leading_zeros %[[HI]] : tensor<4xui32>
// CHECK:         %[[CL:.*]] = stablehlo.count_leading_zeros %[[LO]] : tensor<4xui32>
// CHECK:         %[[Z:.*]] = stablehlo.compare EQ, %[[HI]]
// CHECK:         %[[PLUS:.*]] = stablehlo.add %[[CL]]
// CHECK:         %[[SEL:.*]] = stablehlo.select %[[Z]], %[[PLUS]], %[[CH]]
// CHECK:         stablehlo.convert %[[SEL]] : (tensor<4xui32>) -> tensor<4xi64>
func.func @clz_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %r = stablehlo.count_leading_zeros %x : tensor<4xi64>
  return %r : tensor<4xi64>
}

// Negative: 32-bit clz stays (SPIR-V counts 32 bits).
// CHECK-LABEL: func.func @clz_i32
// CHECK-NEXT:    stablehlo.count_leading_zeros %arg0 : tensor<4xi32>
func.func @clz_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = stablehlo.count_leading_zeros %x : tensor<4xi32>
  return %r : tensor<4xi32>
}

// Signed remainder: the dividend -2^31 moves to -2^31 + |divisor| (vk-signed-remainder-min),
// and the divisor is negated (vk-negated-divisor: x % b == x % -b).
// CHECK-LABEL: func.func @rem_i32
// CHECK-DAG:     %[[MIN:.*]] = stablehlo.constant dense<-2147483648> : tensor<4xi32>
// CHECK-DAG:     %[[IS_MIN:.*]] = stablehlo.compare EQ, %arg0, %[[MIN]], SIGNED
// CHECK-DAG:     %[[ABS:.*]] = stablehlo.abs %arg1
// CHECK:         %[[MOVED:.*]] = stablehlo.add %arg0, %[[ABS]]
// CHECK:         %[[D:.*]] = stablehlo.select %[[IS_MIN]], %[[MOVED]], %arg0
// CHECK:         %[[NEG:.*]] = stablehlo.negate %arg1
// CHECK:         stablehlo.remainder %[[D]], %[[NEG]] {shlo.canonical, shlo.negated_divisor}
func.func @rem_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %r = stablehlo.remainder %x, %y : tensor<4xi32>
  return %r : tensor<4xi32>
}

// Negative: f64 remainder is shlo-expand-f64-math's.
// CHECK-LABEL: func.func @rem_f64
// CHECK-NEXT:    stablehlo.remainder %arg0, %arg1 : tensor<4xf64>
func.func @rem_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %s = stablehlo.remainder %a, %b : tensor<4xf64>
  return %s : tensor<4xf64>
}

// feature_group_count 2: lhs features and rhs output features cut in two, concatenated.
// CHECK-LABEL: func.func @conv_feature_groups
// CHECK-DAG:     %[[L0:.*]] = stablehlo.slice %arg0 [0:2, 0:2, 0:6, 0:6]
// CHECK-DAG:     %[[L1:.*]] = stablehlo.slice %arg0 [0:2, 2:4, 0:6, 0:6]
// CHECK-DAG:     %[[R0:.*]] = stablehlo.slice %arg1 [0:3, 0:2, 0:3, 0:3]
// CHECK-DAG:     %[[R1:.*]] = stablehlo.slice %arg1 [3:6, 0:2, 0:3, 0:3]
// CHECK:         %[[C0:.*]] = stablehlo.convolution(%[[L0]], %[[R0]]) {{.*}} feature_group_count = 1 : i64} : {{.*}} -> tensor<2x3x4x4xf32>
// CHECK:         %[[S0:.*]] = stablehlo.add %[[C0]]
// CHECK:         %[[C1:.*]] = stablehlo.convolution(%[[L1]], %[[R1]]) {{.*}} feature_group_count = 1 : i64} : {{.*}} -> tensor<2x3x4x4xf32>
// CHECK:         %[[S1:.*]] = stablehlo.add %[[C1]]
// CHECK:         stablehlo.concatenate %[[S0]], %[[S1]], dim = 1
func.func @conv_feature_groups(%x: tensor<2x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32>
  return %r : tensor<2x6x4x4xf32>
}

// batch_group_count 2 (NHWC/HWIO layout): lhs batches and rhs output features cut in two.
// CHECK-LABEL: func.func @conv_batch_groups
// CHECK-DAG:     %[[L0:.*]] = stablehlo.slice %arg0 [0:2, 0:5, 0:5, 0:3]
// CHECK-DAG:     %[[L1:.*]] = stablehlo.slice %arg0 [2:4, 0:5, 0:5, 0:3]
// CHECK-DAG:     %[[R0:.*]] = stablehlo.slice %arg1 [0:2, 0:2, 0:3, 0:2]
// CHECK-DAG:     %[[R1:.*]] = stablehlo.slice %arg1 [0:2, 0:2, 0:3, 2:4]
// CHECK:         %[[C0:.*]] = stablehlo.convolution(%[[L0]], %[[R0]]) {{.*}} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : {{.*}} -> tensor<2x4x4x2xf32>
// CHECK:         %[[S0:.*]] = stablehlo.add %[[C0]]
// CHECK:         %[[C1:.*]] = stablehlo.convolution(%[[L1]], %[[R1]])
// CHECK:         %[[S1:.*]] = stablehlo.add %[[C1]]
// CHECK:         stablehlo.concatenate %[[S0]], %[[S1]], dim = 3
func.func @conv_batch_groups(%x: tensor<4x5x5x3xf32>, %w: tensor<2x2x3x4xf32>) -> tensor<2x4x4x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x5x3xf32>, tensor<2x2x3x4xf32>) -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}

// Negative: depthwise (one input feature per group) computes right on Vulkan and stays.
// CHECK-LABEL: func.func @conv_depthwise
// CHECK-NEXT:    stablehlo.convolution(%arg0, %arg1) {{.*}} feature_group_count = 6 : i64}
// CHECK-NOT:     stablehlo.convolution
// CHECK:         return
func.func @conv_depthwise(%x: tensor<1x6x5x5xf32>, %w: tensor<6x1x2x2xf32>) -> tensor<1x6x4x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64} : (tensor<1x6x5x5xf32>, tensor<6x1x2x2xf32>) -> tensor<1x6x4x4xf32>
  return %r : tensor<1x6x4x4xf32>
}

// 8-bit clz counts the zero-extended value in 32 bits, less 24.
// CHECK-LABEL: func.func @clz_i8
// CHECK:         %[[U:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xi8>) -> tensor<4xui8>
// CHECK:         %[[W:.*]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xui32>
// CHECK:         %[[C:.*]] = stablehlo.count_leading_zeros %[[W]] : tensor<4xui32>
// CHECK:         stablehlo.subtract %[[C]]
func.func @clz_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %r = stablehlo.count_leading_zeros %x : tensor<4xi8>
  return %r : tensor<4xi8>
}

// Unsigned 32-bit division divides the zero-extended values in i64, by the negated divisor
// (vk-negated-divisor: a / b == -(a / -b), b = 0 selected apart).
// CHECK-LABEL: func.func @divide_ui32
// CHECK-DAG:     %[[A:.*]] = stablehlo.convert %arg0 : (tensor<4xui32>) -> tensor<4xi64>
// CHECK-DAG:     %[[B:.*]] = stablehlo.convert %arg1 : (tensor<4xui32>) -> tensor<4xi64>
// CHECK:         %[[NB:.*]] = stablehlo.negate %[[B]] : tensor<4xi64>
// CHECK:         %[[Q:.*]] = stablehlo.divide %[[A]], %[[NB]] {shlo.negated_divisor} : tensor<4xi64>
// CHECK:         stablehlo.negate %[[Q]] : tensor<4xi64>
// CHECK:         stablehlo.convert %{{.*}} : (tensor<4xi64>) -> tensor<4xui32>
func.func @divide_ui32(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  %r = stablehlo.divide %a, %b : tensor<4xui32>
  return %r : tensor<4xui32>
}

// Unsigned 64-bit remainder: signed division of the halved dividend, no ui64 division left.
// CHECK-LABEL: func.func @remainder_ui64
// CHECK:         stablehlo.divide {{.*}} : tensor<4xi64>
// CHECK-NOT:     stablehlo.divide {{.*}} : tensor<4xui64>
// CHECK-NOT:     stablehlo.remainder
func.func @remainder_ui64(%a: tensor<4xui64>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %r = stablehlo.remainder %a, %b : tensor<4xui64>
  return %r : tensor<4xui64>
}

// f32 remainder: the exact fmod in f64, unrolled (no while loop).
// CHECK-LABEL: func.func @remainder_f32
// CHECK:         stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NOT:     stablehlo.while
// CHECK-NOT:     stablehlo.remainder
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf64>) -> tensor<4xf32>
func.func @remainder_f32(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.remainder %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}

// A bf16 product: operands widened behind fusion barriers, f32 result stored (a consumer
// barrier), rounded to bf16 on the bits.
// CHECK-LABEL: func.func @dot_bf16
// CHECK:         %[[A:.*]] = iree_tensor_ext.compute_barrier.start {{.*}} : tensor<4x8xf32>
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start {{.*}} : tensor<8x3xf32>
// CHECK:         %[[D:.*]] = stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK:         %[[E:.*]] = iree_tensor_ext.compute_barrier.end %[[D]]
// CHECK:         %[[P:.*]] = stablehlo.add %[[E]], %{{.*}} : tensor<4x3xf32>
// CHECK:         stablehlo.bitcast_convert %[[P]] : (tensor<4x3xf32>) -> tensor<4x3xui32>
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4x3xui16>) -> tensor<4x3xbf16>
func.func @dot_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xbf16> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
  return %r : tensor<4x3xbf16>
}

// vk-byte-product: a product into i8 computed into i32 and converted back; into i32 it stays.
// CHECK-LABEL: func.func @byte_product
// CHECK:         %[[W:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x8xi8>, tensor<8x24xi8>) -> tensor<16x24xi32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.convert %[[W]] : (tensor<16x24xi32>) -> tensor<16x24xi8>
// CHECK:         %[[K:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x8xi8>, tensor<8x24xi8>) -> tensor<16x24xi32>
// CHECK-NEXT:    return %[[N]], %[[K]]
func.func @byte_product(%a: tensor<16x8xi8>, %b: tensor<8x24xi8>) -> (tensor<16x24xi8>, tensor<16x24xi32>) {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x8xi8>, tensor<8x24xi8>) -> tensor<16x24xi8>
  %s = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x8xi8>, tensor<8x24xi8>) -> tensor<16x24xi32>
  return %r, %s : tensor<16x24xi8>, tensor<16x24xi32>
}

// vk-zero-sum-sign: a float product's result plus +0, a sum's from a +-0 constant plus that
// init, the zero read from memory (short sums of -0 terms from +0 were -0); a sum from an
// argument, an integer product and an outer product (one product per result, no sum) stay.
// CHECK-LABEL: func.func @zero_sums
// CHECK-DAG:     %[[M:.*]] = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[ZF:.*]] = iree_tensor_ext.compute_barrier.start %[[Z]] : tensor<f32> -> tensor<f32>
// CHECK:         %[[ZB:.*]] = stablehlo.broadcast_in_dim %[[ZF]], dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK:         %[[DP:.*]] = stablehlo.add %[[D]], %[[ZB]] : tensor<4x3xf32>
// CHECK:         %[[S:.*]] = stablehlo.reduce(%arg0 init: %[[M]])
// CHECK:         %[[MF:.*]] = iree_tensor_ext.compute_barrier.start %[[M]] : tensor<f32> -> tensor<f32>
// CHECK:         %[[MB:.*]] = stablehlo.broadcast_in_dim %[[MF]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[SP:.*]] = stablehlo.add %[[S]], %[[MB]] : tensor<4xf32>
// CHECK:         %[[T:.*]] = stablehlo.reduce(%arg0 init: %arg2)
// CHECK:         %[[I:.*]] = stablehlo.dot_general %arg3, %arg3
// CHECK:         %[[O:.*]] = stablehlo.dot_general %arg4, %arg4, contracting_dims = [1] x [1]
// CHECK-NEXT:    return %[[DP]], %[[SP]], %[[T]], %[[I]], %[[O]]
func.func @zero_sums(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %i: tensor<f32>, %n: tensor<3x3xi32>,
    %o: tensor<4x1xf32>) -> (tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x3xi32>, tensor<4x4xf32>) {
  %m = stablehlo.constant dense<-0.0> : tensor<f32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  %s = stablehlo.reduce(%a init: %m) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %t = stablehlo.reduce(%a init: %i) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  %k = stablehlo.dot_general %n, %n, contracting_dims = [1] x [0] : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi32>
  %u = stablehlo.dot_general %o, %o, contracting_dims = [1] x [1] : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  return %d, %s, %t, %k, %u : tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x3xi32>, tensor<4x4xf32>
}

// vk-squeezed-interior-pad: an interior pad of a 1xN row is the pad of its 1-D reshape, edge-padded
// back along the unit dimension where the pad widens it; a 2xN pad stays.
// CHECK-LABEL: func.func @squeezed_interior_pad
// CHECK:         %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK:         %[[P:.*]] = stablehlo.pad %[[R]], %arg1, low = [-1], high = [1], interior = [1] : (tensor<8xf32>, tensor<f32>) -> tensor<15xf32>
// CHECK:         %[[B:.*]] = stablehlo.reshape %[[P]] : (tensor<15xf32>) -> tensor<1x15xf32>
// CHECK:         %[[E:.*]] = stablehlo.pad %[[B]], %arg1, low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<1x15xf32>, tensor<f32>) -> tensor<2x15xf32>
// CHECK:         %[[T:.*]] = stablehlo.pad %arg2, %arg1, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x15xf32>
// CHECK-NEXT:    return %[[E]], %[[T]]
func.func @squeezed_interior_pad(%x: tensor<1x8xf32>, %v: tensor<f32>, %y: tensor<2x8xf32>)
    -> (tensor<2x15xf32>, tensor<2x15xf32>) {
  %p = stablehlo.pad %x, %v, low = [1, -1], high = [0, 1], interior = [0, 1] : (tensor<1x8xf32>, tensor<f32>) -> tensor<2x15xf32>
  %q = stablehlo.pad %y, %v, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x15xf32>
  return %p, %q : tensor<2x15xf32>, tensor<2x15xf32>
}
