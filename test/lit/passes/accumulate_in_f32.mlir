// RUN: shlo-opt --shlo-accumulate-in-f32 %s | filecheck %s

// A bf16 convolution: the same convolution with an f32 result, rounded to bf16 once.
// CHECK-LABEL: func.func @conv
// CHECK:         %[[C:.*]] = stablehlo.convolution(%arg0, %arg1) {{.*}} : (tensor<1x4x4x8xbf16>, tensor<3x3x8x4xbf16>) -> tensor<1x4x4x4xf32>
// CHECK:         stablehlo.convert %[[C]] : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xbf16>
func.func @conv(%x: tensor<1x4x4x8xbf16>, %w: tensor<3x3x8x4xbf16>) -> tensor<1x4x4x4xbf16> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x8xbf16>, tensor<3x3x8x4xbf16>) -> tensor<1x4x4x4xbf16>
  return %r : tensor<1x4x4x4xbf16>
}

// A batched f16 dot_general on a dynamic batch.
// CHECK-LABEL: func.func @batched_dot
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<?x3x5xf16>, tensor<?x5x2xf16>) -> tensor<?x3x2xf32>
// CHECK:         stablehlo.convert %[[D]] : (tensor<?x3x2xf32>) -> tensor<?x3x2xf16>
func.func @batched_dot(%a: tensor<?x3x5xf16>, %b: tensor<?x5x2xf16>) -> tensor<?x3x2xf16> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x3x5xf16>, tensor<?x5x2xf16>) -> tensor<?x3x2xf16>
  return %r : tensor<?x3x2xf16>
}

// A cumulative sum: operand, init and body in f32.
// CHECK-LABEL: func.func @cumsum
// CHECK-DAG:     %[[X:.*]] = stablehlo.convert %arg0 : (tensor<6xbf16>) -> tensor<6xf32>
// CHECK-DAG:     %[[I:.*]] = stablehlo.convert %{{.*}} : (tensor<bf16>) -> tensor<f32>
// CHECK:         %[[W:.*]] = "stablehlo.reduce_window"(%[[X]], %[[I]])
// CHECK:           stablehlo.add %{{.*}}, %{{.*}} : tensor<f32>
// CHECK:         (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
// CHECK:         stablehlo.convert %[[W]] : (tensor<6xf32>) -> tensor<6xbf16>
func.func @cumsum(%x: tensor<6xbf16>) -> tensor<6xbf16> {
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %r = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 6>, padding = dense<[[5, 0]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
  }) : (tensor<6xbf16>, tensor<bf16>) -> tensor<6xbf16>
  return %r : tensor<6xbf16>
}

// Max pooling is exact in bf16, an explicit algorithm is the program's choice, and f32
// accumulates in f32 already: all stay.
// CHECK-LABEL: func.func @stay
// CHECK-NOT:     stablehlo.convert
// CHECK:         return
func.func @stay(%x: tensor<8xbf16>, %a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>, %c: tensor<4x8xf32>, %d: tensor<8x2xf32>) -> (tensor<7xbf16>, tensor<4x2xbf16>, tensor<4x2xf32>) {
  %init = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %m = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 2>}> ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.maximum %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
  }) : (tensor<8xbf16>, tensor<bf16>) -> tensor<7xbf16>
  %e = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = bf16, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  %f = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %m, %e, %f : tensor<7xbf16>, tensor<4x2xbf16>, tensor<4x2xf32>
}

// A grouped f16 convolution: f32 operands behind fusion barriers, an f32 result rounded once.
// CHECK-LABEL: func.func @grouped
// CHECK-DAG:     %[[X:.*]] = stablehlo.convert %arg0 : (tensor<2x8x6x6xf16>) -> tensor<2x8x6x6xf32>
// CHECK-DAG:     %[[W:.*]] = stablehlo.convert %arg1 : (tensor<8x2x3x3xf16>) -> tensor<8x2x3x3xf32>
// CHECK-DAG:     %[[BX:.*]] = iree_tensor_ext.compute_barrier.start %[[X]]
// CHECK-DAG:     %[[BW:.*]] = iree_tensor_ext.compute_barrier.start %[[W]]
// CHECK:         %[[C:.*]] = stablehlo.convolution(%[[BX]], %[[BW]]) {{.*}} feature_group_count = 4 {{.*}} -> tensor<2x8x6x6xf32>
// CHECK:         %[[R:.*]] = stablehlo.convert %[[C]] : (tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf16>
// CHECK:         return %[[R]]
func.func @grouped(%x: tensor<2x8x6x6xf16>, %w: tensor<8x2x3x3xf16>) -> tensor<2x8x6x6xf16> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x6x6xf16>, tensor<8x2x3x3xf16>) -> tensor<2x8x6x6xf16>
  return %r : tensor<2x8x6x6xf16>
}

// A dot_general that contracts nothing takes operands of its result's type: bf16 into f32
// (jax's preferred_element_type), and a bf16 result computed in f32 of f32 operands.
// CHECK-LABEL: func.func @one_product
// CHECK-DAG:     %[[S:.*]] = stablehlo.convert %arg0 : (tensor<bf16>) -> tensor<f32>
// CHECK-DAG:     %[[C:.*]] = stablehlo.convert %arg1 : (tensor<5x1xbf16>) -> tensor<5x1xf32>
// CHECK:         stablehlo.dot_general %[[S]], %[[C]], contracting_dims = [] x [] : (tensor<f32>, tensor<5x1xf32>) -> tensor<5x1xf32>
// CHECK:         %[[W:.*]] = stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [] x [] : (tensor<f32>, tensor<5x1xf32>) -> tensor<5x1xf32>
// CHECK:         stablehlo.convert %[[W]] : (tensor<5x1xf32>) -> tensor<5x1xbf16>
func.func @one_product(%s: tensor<bf16>, %x: tensor<5x1xbf16>) -> (tensor<5x1xf32>, tensor<5x1xbf16>) {
  %p = stablehlo.dot_general %s, %x, contracting_dims = [] x [] : (tensor<bf16>, tensor<5x1xbf16>) -> tensor<5x1xf32>
  %q = stablehlo.dot_general %s, %x, contracting_dims = [] x [] : (tensor<bf16>, tensor<5x1xbf16>) -> tensor<5x1xbf16>
  return %p, %q : tensor<5x1xf32>, tensor<5x1xbf16>
}

// A contraction of mixed types stays as it is.
// CHECK-LABEL: func.func @contraction
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xf32>
func.func @contraction(%a: tensor<4x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xf32> {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xf32>
  return %p : tensor<4x3xf32>
}
