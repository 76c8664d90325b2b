// RUN: shlo-opt --shlo-expand-complex-dot %s | filecheck %s

// Four real products with the op's dimension numbers; the join waits behind fusion barriers.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[AR:.*]] = stablehlo.real %arg0
// CHECK-DAG:     %[[AI:.*]] = stablehlo.imag %arg0
// CHECK-DAG:     %[[BR:.*]] = stablehlo.real %arg1
// CHECK-DAG:     %[[BI:.*]] = stablehlo.imag %arg1
// CHECK:         %[[RR:.*]] = stablehlo.dot_general %[[AR]], %[[BR]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : {{.*}} -> tensor<2x4x3xf32>
// CHECK:         %[[II:.*]] = stablehlo.dot_general %[[AI]], %[[BI]]
// CHECK:         %[[RE:.*]] = stablehlo.subtract %[[RR]], %[[II]]
// CHECK:         %[[RI:.*]] = stablehlo.dot_general %[[AR]], %[[BI]]
// CHECK:         %[[IR:.*]] = stablehlo.dot_general %[[AI]], %[[BR]]
// CHECK:         %[[IM:.*]] = stablehlo.add %[[RI]], %[[IR]]
// CHECK:         %[[FR:.*]] = iree_tensor_ext.compute_barrier.start %[[RE]]
// CHECK:         %[[FI:.*]] = iree_tensor_ext.compute_barrier.start %[[IM]]
// CHECK:         stablehlo.complex %[[FR]], %[[FI]] : tensor<2x4x3xcomplex<f32>>
func.func @matmul(%a: tensor<2x4x8xcomplex<f32>>, %b: tensor<2x8x3xcomplex<f32>>) -> tensor<2x4x3xcomplex<f32>> {
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xcomplex<f32>>, tensor<2x8x3xcomplex<f32>>) -> tensor<2x4x3xcomplex<f32>>
  return %r : tensor<2x4x3xcomplex<f32>>
}

// complex<f64> the same way, in f64 (IREE 3.13 crashed on one inside a loop: jax's
// triangular solve of complex128, data tiling on).
// CHECK-LABEL: func.func @double
// CHECK-COUNT-4: stablehlo.dot_general {{.*}} -> tensor<4x3xf64>
// CHECK:         stablehlo.complex {{.*}} : tensor<4x3xcomplex<f64>>
func.func @double(%a: tensor<4x8xcomplex<f64>>, %b: tensor<8x3xcomplex<f64>>) -> tensor<4x3xcomplex<f64>> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xcomplex<f64>>, tensor<8x3xcomplex<f64>>) -> tensor<4x3xcomplex<f64>>
  return %r : tensor<4x3xcomplex<f64>>
}

// Negative: real products compile as they are.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:     stablehlo.real
// CHECK-COUNT-1: stablehlo.dot_general
func.func @untouched(%c: tensor<4x8xf32>, %d: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %s = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// Inside a loop the join waits behind an optimization_barrier (fusion barriers there made IREE
// fail on a complex128 SVD's loops).
// CHECK-LABEL: func.func @in_a_loop
// CHECK:         stablehlo.while
// CHECK:           %[[B:.*]]:2 = stablehlo.optimization_barrier
// CHECK:           stablehlo.complex %[[B]]#0, %[[B]]#1 : tensor<2x2xcomplex<f32>>
// CHECK-NOT:     compute_barrier
func.func @in_a_loop(%a: tensor<2x2xcomplex<f32>>, %n: tensor<i32>) -> tensor<2x2xcomplex<f32>> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<2x2xcomplex<f32>>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %x, %a, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
    %next = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %next, %y : tensor<i32>, tensor<2x2xcomplex<f32>>
  }
  return %r#1 : tensor<2x2xcomplex<f32>>
}

// A complex convolution: four real convolutions with the op's attributes (IREE's compiler
// crashed on a dilated one with permuted layouts).
// CHECK-LABEL: func.func @convolution
// CHECK-COUNT-4: stablehlo.convolution({{.*}}) dim_numbers = [b, 1, f, 0]x[o, i, 0, 1]->[1, 0, f, b], window = {stride = [1, 1], pad = {{\[\[}}1, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x1x8x6xf32>, tensor<1x8x4x1xf32>) -> tensor<1x3x1x3xf32>
// CHECK:         stablehlo.complex
// CHECK-NOT:     stablehlo.convolution
func.func @convolution(%x: tensor<3x1x8x6xcomplex<f32>>, %k: tensor<1x8x4x1xcomplex<f32>>) -> tensor<1x3x1x3xcomplex<f32>> {
  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 1, f, 0]x[o, i, 0, 1]->[1, 0, f, b], window = {stride = [1, 1], pad = [[1, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x1x8x6xcomplex<f32>>, tensor<1x8x4x1xcomplex<f32>>) -> tensor<1x3x1x3xcomplex<f32>>
  return %r : tensor<1x3x1x3xcomplex<f32>>
}
