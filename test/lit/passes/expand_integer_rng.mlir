// RUN: shlo-opt --shlo-expand-integer-rng %s | filecheck %s

// i32: an f32 uniform rng in [0, 1), scaled by the span b - a (computed in ui32, where it
// cannot overflow), floored, clamped to span - 1 and added to a; b <= a gives a.
// CHECK-LABEL: func.func @s32
// CHECK-DAG:     %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<3x5xui32>
// CHECK-DAG:     %[[F0:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[F1:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[U:.*]] = stablehlo.rng %[[F0]], %[[F1]], %{{.*}}, distribution = UNIFORM {shlo.canonical} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
// CHECK:         %[[A:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
// CHECK:         %[[UA:.*]] = stablehlo.bitcast_convert %[[A]] : (tensor<3x5xi32>) -> tensor<3x5xui32>
// CHECK:         %[[UB:.*]] = stablehlo.bitcast_convert %[[B]] : (tensor<3x5xi32>) -> tensor<3x5xui32>
// CHECK:         %[[SPAN:.*]] = stablehlo.subtract %[[UB]], %[[UA]] : tensor<3x5xui32>
// CHECK:         %[[FSPAN:.*]] = stablehlo.convert %[[SPAN]] : (tensor<3x5xui32>) -> tensor<3x5xf32>
// CHECK:         %[[SCALED:.*]] = stablehlo.multiply %[[U]], %[[FSPAN]]
// CHECK:         %[[FLOOR:.*]] = stablehlo.floor %[[SCALED]]
// CHECK:         %[[OFF:.*]] = stablehlo.convert %[[FLOOR]] : (tensor<3x5xf32>) -> tensor<3x5xui32>
// CHECK:         %[[LAST:.*]] = stablehlo.subtract %[[SPAN]], %[[ONE]]
// CHECK:         %[[CLAMPED:.*]] = stablehlo.minimum %[[OFF]], %[[LAST]]
// CHECK:         %[[SUM:.*]] = stablehlo.add %[[UA]], %[[CLAMPED]] : tensor<3x5xui32>
// CHECK:         %[[DRAWN:.*]] = stablehlo.bitcast_convert %[[SUM]] : (tensor<3x5xui32>) -> tensor<3x5xi32>
// CHECK:         %[[NONEMPTY:.*]] = stablehlo.compare  GT, %[[B]], %[[A]], SIGNED
// CHECK:         %[[R:.*]] = stablehlo.select %[[NONEMPTY]], %[[DRAWN]], %[[A]]
// CHECK:         return %[[R]]
func.func @s32(%a: tensor<i32>, %b: tensor<i32>) -> tensor<3x5xi32> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// 64-bit integers draw in f64; unsigned types need no bitcast.
// CHECK-LABEL: func.func @u64
// CHECK:         stablehlo.rng {{.*}} -> tensor<8xf64>
// CHECK-NOT:     stablehlo.bitcast_convert
// CHECK:         stablehlo.convert {{.*}} : (tensor<8xui64>) -> tensor<8xf64>
// CHECK:         stablehlo.compare  GT, {{.*}}, UNSIGNED
func.func @u64(%a: tensor<ui64>, %b: tensor<ui64>) -> tensor<8xui64> {
  %s = stablehlo.constant dense<8> : tensor<1xi32>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<ui64>, tensor<ui64>, tensor<1xi32>) -> tensor<8xui64>
  return %0 : tensor<8xui64>
}

// A dynamic shape: the float rng takes the same shape operand, a is broadcast to it.
// CHECK-LABEL: func.func @dynamic
// CHECK:         stablehlo.rng {{.*}}, %arg2, distribution = UNIFORM {shlo.canonical} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
// CHECK:         stablehlo.dynamic_broadcast_in_dim %arg0, %arg2, dims = [] : (tensor<i16>, tensor<1xi64>) -> tensor<?xi16>
func.func @dynamic(%a: tensor<i16>, %b: tensor<i16>, %s: tensor<1xi64>) -> tensor<?xi16> {
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i16>, tensor<i16>, tensor<1xi64>) -> tensor<?xi16>
  return %0 : tensor<?xi16>
}

// i1: [a, b) is empty or [false, true); either way every value is a.
// CHECK-LABEL: func.func @pred
// CHECK-NOT:     stablehlo.rng
// CHECK:         %[[R:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK:         return %[[R]]
func.func @pred(%a: tensor<i1>, %b: tensor<i1>) -> tensor<4xi1> {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i1>, tensor<i1>, tensor<1xi64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// f32 UNIFORM: IREE's own, marked, kept below b (IREE's gave b); f32 NORMAL is IREE's own.
// CHECK-LABEL: func.func @floats
// CHECK:         %[[U:.*]] = stablehlo.rng %arg0, %arg1, %{{.*}}, distribution = UNIFORM {shlo.canonical}
// CHECK:         %[[LT:.*]] = stablehlo.compare LT, %[[U]], %{{.*}}
// CHECK:         %[[S:.*]] = stablehlo.select %[[LT]], %[[U]], %{{.*}}
// CHECK:         %[[N:.*]] = stablehlo.rng %arg0, %arg1, %{{.*}}, distribution = NORMAL :
// CHECK:         return %[[S]], %[[N]]
func.func @floats(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  %1 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// f16 NORMAL (IREE compiles NORMAL only for f32): mu + sigma * an f32 NORMAL(0, 1).
// CHECK-LABEL: func.func @f16_normal
// CHECK-DAG:     %[[F0:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[F1:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[Z:.*]] = stablehlo.rng %[[F0]], %[[F1]], %{{.*}}, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
// CHECK-DAG:     %[[MU:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f16>) -> tensor<3x5xf16>
// CHECK-DAG:     %[[SIGMA:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f16>) -> tensor<3x5xf16>
// CHECK-DAG:     %[[Z16:.*]] = stablehlo.convert %[[Z]] : (tensor<3x5xf32>) -> tensor<3x5xf16>
// CHECK:         %[[S:.*]] = stablehlo.multiply %[[SIGMA]], %[[Z16]]
// CHECK:         %[[R:.*]] = stablehlo.add %[[MU]], %[[S]]
// CHECK:         return %[[R]]
func.func @f16_normal(%mu: tensor<f16>, %sigma: tensor<f16>) -> tensor<3x5xf16> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%mu, %sigma, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f16>, tensor<f16>, tensor<2xi64>) -> tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}

// An f32 NORMAL stays.
// CHECK-LABEL: func.func @f32_normal
// CHECK:         stablehlo.rng %arg0, %arg1, %{{.*}}, distribution = NORMAL
// CHECK-NOT:     stablehlo.multiply
func.func @f32_normal(%mu: tensor<f32>, %sigma: tensor<f32>) -> tensor<3x5xf32> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%mu, %sigma, %s) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// bf16 UNIFORM (IREE's returned b): an f32 UNIFORM over [a, b), rounded to bf16, a value that
// rounded up to b replaced by the largest bf16 below b (b's bits - 1 for b > 0, + 1 for b < 0,
// the sign bit and 1 for b = 0).
// CHECK-LABEL: func.func @bf16_uniform
// CHECK-DAG:     %[[A:.*]] = stablehlo.convert %arg0 : (tensor<bf16>) -> tensor<f32>
// CHECK-DAG:     %[[B:.*]] = stablehlo.convert %arg1 : (tensor<bf16>) -> tensor<f32>
// CHECK:         %[[U:.*]] = stablehlo.rng %[[A]], %[[B]], %{{.*}}, distribution = UNIFORM {shlo.canonical} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x5xf32>
// CHECK:         %[[R:.*]] = stablehlo.convert %[[U]] : (tensor<3x5xf32>) -> tensor<3x5xbf16>
// CHECK:         stablehlo.bitcast_convert %arg1 : (tensor<bf16>) -> tensor<i16>
// CHECK:         %[[BELOW:.*]] = stablehlo.bitcast_convert %{{.*}} : (tensor<i16>) -> tensor<bf16>
// CHECK-DAG:     %[[BELOWN:.*]] = stablehlo.broadcast_in_dim %[[BELOW]], dims = []
// CHECK-DAG:     %[[BN:.*]] = stablehlo.broadcast_in_dim %arg1, dims = []
// CHECK:         %[[LT:.*]] = stablehlo.compare LT, %[[R]], %[[BN]]
// CHECK:         %[[S:.*]] = stablehlo.select %[[LT]], %[[R]], %[[BELOWN]]
// CHECK:         return %[[S]]
func.func @bf16_uniform(%a: tensor<bf16>, %b: tensor<bf16>) -> tensor<3x5xbf16> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<bf16>, tensor<bf16>, tensor<2xi64>) -> tensor<3x5xbf16>
  return %0 : tensor<3x5xbf16>
}
