// RUN: shlo-opt --shlo-expand-complex-dot %s | filecheck %s

// Four real products with the op's dimension numbers; the join waits behind a barrier.
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
// CHECK:         %[[B:.*]]:2 = stablehlo.optimization_barrier %[[RE]], %[[IM]]
// CHECK:         stablehlo.complex %[[B]]#0, %[[B]]#1 : tensor<2x4x3xcomplex<f32>>
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
