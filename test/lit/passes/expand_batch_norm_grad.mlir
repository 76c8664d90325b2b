// RUN: shlo-opt --shlo-expand-batch-norm-grad %s | filecheck %s
// RUN: not shlo-opt --shlo-expand-batch-norm-grad %S/Inputs/batch_norm_grad_dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR

// The spec's decomposition: sums are reduces over the non-feature dimensions (0 and 2),
// broadcast back along the feature dimension; n = 2 * 4 = 8 elements per feature.
// CHECK-LABEL: func.func @f32
// CHECK-NOT:     stablehlo.batch_norm_grad
// CHECK-DAG:     %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[N:.*]] = stablehlo.constant dense<8.000000e+00> : tensor<2x3x4xf32>
// CHECK-DAG:     %[[EPS:.*]] = stablehlo.constant dense<1.000000e-03> : tensor<2x3x4xf32>
// CHECK:         %[[SCALE:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1]
// CHECK:         %[[MEAN:.*]] = stablehlo.broadcast_in_dim %arg2, dims = [1]
// CHECK:         %[[VAR:.*]] = stablehlo.broadcast_in_dim %arg3, dims = [1]
// CHECK:         %[[CENTERED:.*]] = stablehlo.subtract %arg0, %[[MEAN]]
// CHECK:         %[[VAREPS:.*]] = stablehlo.add %[[VAR]], %[[EPS]]
// CHECK:         %[[STDDEV:.*]] = stablehlo.sqrt %[[VAREPS]]
// CHECK:         %[[NORMALIZED:.*]] = stablehlo.divide %[[CENTERED]], %[[STDDEV]]
// CHECK:         %[[I1:.*]] = stablehlo.multiply %arg4, %[[N]]
// CHECK:         %[[SUMDY:.*]] = stablehlo.reduce(%arg4 init: %[[ZERO]]) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK:         %[[I2:.*]] = stablehlo.broadcast_in_dim %[[SUMDY]], dims = [1]
// CHECK:         %[[DYC:.*]] = stablehlo.multiply %arg4, %[[CENTERED]]
// CHECK:         %[[SUMDYC:.*]] = stablehlo.reduce(%[[DYC]] init: %[[ZERO]]) applies stablehlo.add across dimensions = [0, 2]
// CHECK:         %[[I3:.*]] = stablehlo.broadcast_in_dim %[[SUMDYC]], dims = [1]
// CHECK:         %[[I4:.*]] = stablehlo.multiply %[[I3]], %[[CENTERED]]
// CHECK:         %[[I5:.*]] = stablehlo.divide %[[I4]], %[[VAREPS]]
// CHECK:         %[[I12:.*]] = stablehlo.subtract %[[I1]], %[[I2]]
// CHECK:         %[[I6:.*]] = stablehlo.subtract %[[I12]], %[[I5]]
// CHECK:         %[[Q:.*]] = stablehlo.divide %[[SCALE]], %[[STDDEV]]
// CHECK:         %[[QN:.*]] = stablehlo.divide %[[Q]], %[[N]]
// CHECK:         %[[GRAD_OPERAND:.*]] = stablehlo.multiply %[[QN]], %[[I6]]
// CHECK:         %[[DYN:.*]] = stablehlo.multiply %arg4, %[[NORMALIZED]]
// CHECK:         %[[GRAD_SCALE:.*]] = stablehlo.reduce(%[[DYN]] init: %[[ZERO]]) applies stablehlo.add across dimensions = [0, 2]
// CHECK:         %[[GRAD_OFFSET:.*]] = stablehlo.reduce(%arg4 init: %[[ZERO]]) applies stablehlo.add across dimensions = [0, 2]
// CHECK:         return %[[GRAD_OPERAND]], %[[GRAD_SCALE]], %[[GRAD_OFFSET]]
func.func @f32(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %dy: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// bf16 computes in f32 and rounds the three results back; epsilon is first rounded to bf16.
// CHECK-LABEL: func.func @bf16
// CHECK-DAG:     stablehlo.constant dense<9.99450683E-4> : tensor<5x2xf32>
// CHECK-DAG:     stablehlo.convert %arg0 : (tensor<5x2xbf16>) -> tensor<5x2xf32>
// CHECK:         stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<5x2xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK:         %[[A:.*]] = stablehlo.convert {{.*}} : (tensor<5x2xf32>) -> tensor<5x2xbf16>
// CHECK:         %[[B:.*]] = stablehlo.convert {{.*}} : (tensor<5xf32>) -> tensor<5xbf16>
// CHECK:         %[[C:.*]] = stablehlo.convert {{.*}} : (tensor<5xf32>) -> tensor<5xbf16>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @bf16(%x: tensor<5x2xbf16>, %s: tensor<5xbf16>, %m: tensor<5xbf16>, %v: tensor<5xbf16>, %dy: tensor<5x2xbf16>) -> (tensor<5x2xbf16>, tensor<5xbf16>, tensor<5xbf16>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %dy) {epsilon = 1.0e-3 : f32, feature_index = 0 : i64} : (tensor<5x2xbf16>, tensor<5xbf16>, tensor<5xbf16>, tensor<5xbf16>, tensor<5x2xbf16>) -> (tensor<5x2xbf16>, tensor<5xbf16>, tensor<5xbf16>)
  return %0#0, %0#1, %0#2 : tensor<5x2xbf16>, tensor<5xbf16>, tensor<5xbf16>
}

// Negative: batch_norm_inference and batch_norm_training are left alone.
// CHECK-LABEL: func.func @other_batch_norms
// CHECK:         stablehlo.batch_norm_inference
// CHECK:         stablehlo.batch_norm_training
func.func @other_batch_norms(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0, %1#0 : tensor<2x3xf32>, tensor<2x3xf32>
}

// ERR: batch_norm_grad_dynamic.mlir:2:10: error: shlo-expand-batch-norm-grad: stablehlo.batch_norm_grad needs a static operand shape, got tensor<?x3xf32>
