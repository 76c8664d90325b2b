// RUN: shlo-opt --shlo-round-narrow-float-converts %s | filecheck %s

// f32 -> f8: the value is rounded at the target's quantum for its binade (never below the
// subnormal quantum 2^(-6-3)) in f32, then converted.
// CHECK-LABEL: func.func @f32_to_f8
// CHECK:         %[[BITS:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK:         stablehlo.shift_right_logical %[[BITS]]
// CHECK:         %[[Q:.*]] = stablehlo.bitcast_convert {{.*}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK:         %[[S:.*]] = stablehlo.divide %arg0, %[[Q]]
// CHECK:         %[[R:.*]] = stablehlo.round_nearest_even %[[S]]
// CHECK:         stablehlo.multiply %[[R]], %[[Q]]
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
// CHECK-NOT:     shlo.canonical
func.func @f32_to_f8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// f64 is rounded in f64 (i64 bit fields), then narrowed to f32 exactly before f4.
// CHECK-LABEL: func.func @f64_to_f4
// CHECK:         stablehlo.bitcast_convert %arg0 : (tensor<4xf64>) -> tensor<4xi64>
// CHECK:         stablehlo.round_nearest_even {{.*}} : tensor<4xf64>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK:         stablehlo.convert {{.*}} : (tensor<4xf32>) -> tensor<4xf4E2M1FN>
func.func @f64_to_f4(%x: tensor<4xf64>) -> tensor<4xf4E2M1FN> {
  %0 = stablehlo.convert %x : (tensor<4xf64>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// Left alone: wider targets, narrow-to-wide conversions, integers, and f8E8M0FNU (powers of
// two only).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     round_nearest_even
// CHECK-COUNT-4: stablehlo.convert
func.func @untouched(%x: tensor<4xf32>, %y: tensor<4xf8E5M2>, %i: tensor<4xi32>) -> (tensor<4xbf16>, tensor<4xf32>, tensor<4xf8E4M3FN>, tensor<4xf8E8M0FNU>) {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = stablehlo.convert %y : (tensor<4xf8E5M2>) -> tensor<4xf32>
  %2 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf8E4M3FN>
  %3 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E8M0FNU>
  return %0, %1, %2, %3 : tensor<4xbf16>, tensor<4xf32>, tensor<4xf8E4M3FN>, tensor<4xf8E8M0FNU>
}

// From f8E4M3FN: NaN for both NaN bytes (IREE reads 0xFF as -480).
// CHECK-LABEL: func.func @from_e4m3fn
// CHECK-DAG:     %[[NAN:.*]] = stablehlo.constant dense<0x7FC00000> : tensor<4xf32>
// CHECK-DAG:     %[[W:.*]] = stablehlo.convert %arg0 : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
// CHECK-DAG:     %[[B:.*]] = stablehlo.bitcast_convert %arg0 : (tensor<4xf8E4M3FN>) -> tensor<4xui8>
// CHECK:         %[[IS_NAN:.*]] = stablehlo.compare  EQ
// CHECK:         stablehlo.select %[[IS_NAN]], %[[NAN]], %[[W]]
func.func @from_e4m3fn(%x: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
  %0 = stablehlo.convert %x : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer to bf16 (IREE's CPU code calls __truncsfbf2, unlinked, without AVX512-BF16; SPIR-V
// cannot compile it): through f64, rounded to bf16's grid, the top 16 bits of the f32.
// CHECK-LABEL: func.func @i32_to_bf16
// CHECK:         stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK:         stablehlo.round_nearest_even {{.*}} : tensor<4xf64>
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK-NOT:     -> tensor<4xbf16>
func.func @i32_to_bf16(%x: tensor<4xi32>) -> tensor<4xbf16> {
  %r = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// 64-bit integers at or above 2^53 keep a sticky bit for the bits an f64 cannot hold, so the
// one rounding to bf16 sees ties as they are.
// CHECK-LABEL: func.func @i64_to_bf16
// CHECK:         %[[M:.*]] = stablehlo.bitcast_convert {{.*}} : (tensor<4xi64>) -> tensor<4xui64>
// CHECK:         stablehlo.and %[[M]], %{{.*}} : tensor<4xui64>
// CHECK:         stablehlo.compare  GE, %[[M]], %{{.*}} : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xi1>
// CHECK:         stablehlo.convert %{{.*}} : (tensor<4xui64>) -> tensor<4xf64>
// CHECK:         stablehlo.bitcast_convert {{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
func.func @i64_to_bf16(%x: tensor<4xi64>) -> tensor<4xbf16> {
  %r = stablehlo.convert %x : (tensor<4xi64>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}
