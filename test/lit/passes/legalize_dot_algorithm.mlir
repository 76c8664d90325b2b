// RUN: shlo-opt --shlo-legalize-dot-algorithm %s | filecheck %s

// tf32 operands: rounded to 8 exponent and 10 mantissa bits, then a plain f32 dot.
// CHECK-LABEL: func.func @f
// CHECK:         %[[A:.*]] = stablehlo.reduce_precision %arg0, format = e8m10
// CHECK:         %[[B:.*]] = stablehlo.reduce_precision %arg1, format = e8m10
// CHECK:         stablehlo.dot_general %[[A]], %[[B]], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT:     algorithm
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0],
    algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32,
      lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1,
      allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// bf16 operands summed in f32: the dot yields f32, converted to the bf16 result.
// CHECK-LABEL: func.func @g
// CHECK-NOT:     reduce_precision
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<2x4xf32>
// CHECK:         stablehlo.convert %[[D]] : (tensor<2x4xf32>) -> tensor<2x4xbf16>
func.func @g(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0],
    algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32,
      lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1,
      allow_imprecise_accumulation = false> : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// Integers are exact whatever the algorithm: only the attribute goes. Without an algorithm,
// a dot_general is left alone.
// CHECK-LABEL: func.func @ints
// CHECK-NOT:     reduce_precision
// CHECK:         stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
// CHECK:         stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] :
func.func @ints(%a: tensor<2x2x2xi64>, %b: tensor<2x2x2xi64>) -> (tensor<2x2x2xi64>, tensor<2x2x2xi64>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT],
    algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32,
      lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1,
      allow_imprecise_accumulation = false> : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  return %0, %1 : tensor<2x2x2xi64>, tensor<2x2x2xi64>
}

// A contraction over no elements is zeros (IREE's Vulkan compiler crashed on it).
// CHECK-LABEL: func.func @empty_contraction
// CHECK-NOT:     stablehlo.dot_general
// CHECK:         %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<5x8xf64>
// CHECK:         return %[[Z]]
func.func @empty_contraction(%a: tensor<0x1xf64>, %b: tensor<1x0x5x8xf64>) -> tensor<5x8xf64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 0] x [0, 1] : (tensor<0x1xf64>, tensor<1x0x5x8xf64>) -> tensor<5x8xf64>
  return %0 : tensor<5x8xf64>
}
