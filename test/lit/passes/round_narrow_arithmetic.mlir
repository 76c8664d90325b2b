// RUN: shlo-opt --shlo-round-narrow-arithmetic %s | filecheck %s

// A bf16 product that another op reads: computed in f32 and rounded to bf16 on the bits
// (the top half plus the carry; IREE would fold a plain convert pair and keep the chain in
// f32). The sum is returned: storing it rounds it, so it stays.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.*]] = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         %[[B:.*]] = stablehlo.convert %arg1 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         %[[P:.*]] = stablehlo.multiply %[[A]], %[[B]] : tensor<4xf32>
// CHECK:         %[[U:.*]] = stablehlo.bitcast_convert %[[P]] : (tensor<4xf32>) -> tensor<4xui32>
// CHECK:         stablehlo.shift_right_logical
// CHECK:         %[[T:.*]] = stablehlo.convert %{{.*}} : (tensor<4xui32>) -> tensor<4xui16>
// CHECK:         %[[N:.*]] = stablehlo.bitcast_convert %[[T]] : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK:         %[[S:.*]] = stablehlo.add %[[N]], %arg0 : tensor<4xbf16>
// CHECK:         return %[[S]]
func.func @chain(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xbf16> {
  %p = stablehlo.multiply %x, %y : tensor<4xbf16>
  %s = stablehlo.add %p, %x : tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// Converts to bf16: from f32 on the bits, from f64 first on bf16's grid in f64.
// CHECK-LABEL: func.func @converts
// CHECK:         stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xui32>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK:         stablehlo.round_nearest_even %{{.*}} : tensor<4xf64>
// CHECK:         stablehlo.convert %{{.*}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
func.func @converts(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xbf16> {
  %c = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
  %d = stablehlo.convert %b : (tensor<4xf64>) -> tensor<4xbf16>
  %s = stablehlo.subtract %c, %d : tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// A bf16 sum read by a divide: accumulated in f32, rounded once. Exact ops (negate) and the
// add inside the reducer's body stay in bf16.
// CHECK-LABEL: func.func @sum
// CHECK:         %[[W:.*]] = stablehlo.convert %arg0 : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK:         stablehlo.reduce(%[[W]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:         stablehlo.bitcast_convert %{{.*}} : (tensor<4xui16>) -> tensor<4xbf16>
// CHECK:         stablehlo.negate %{{.*}} : tensor<4xbf16>
func.func @sum(%x: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %n = stablehlo.negate %s : tensor<4xbf16>
  %d = stablehlo.divide %n, %s : tensor<4xbf16>
  return %d : tensor<4xbf16>
}

// An 8-bit float product, returned: in f32 (through the NaN-aware widening), put on the
// f8E4M3FN grid in f32 (subnormals included), converted exactly.
// CHECK-LABEL: func.func @f8_product
// CHECK:         %[[P:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK:         stablehlo.round_nearest_even
// CHECK:         stablehlo.convert %{{.*}} {shlo.canonical} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
func.func @f8_product(%x: tensor<4xf8E4M3FN>, %y: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %p = stablehlo.multiply %x, %y : tensor<4xf8E4M3FN>
  return %p : tensor<4xf8E4M3FN>
}
