// RUN: shlo-opt --shlo-fence-crossed-reductions %s | filecheck %s

// x - outer(s, s): the sum is read as s[i] and as s[j], and is fenced.
// CHECK-LABEL: func.func @outer
// CHECK:         %[[S:.*]] = stablehlo.reduce
// CHECK-NEXT:    %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[S]]
// CHECK:         stablehlo.broadcast_in_dim %[[F]], dims = [0]
// CHECK:         stablehlo.broadcast_in_dim %[[F]], dims = [1]
func.func @outer(%x: tensor<33x33xf64>) -> tensor<33x33xf64> {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<33x33xf64>, tensor<f64>) -> tensor<33xf64>
  %a = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<33xf64>) -> tensor<33x33xf64>
  %b = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<33xf64>) -> tensor<33x33xf64>
  %c = stablehlo.multiply %a, %b : tensor<33x33xf64>
  %d = stablehlo.subtract %x, %c : tensor<33x33xf64>
  return %d : tensor<33x33xf64>
}

// A matrix-vector product read through a transpose of its broadcast, past a unit reshape.
// CHECK-LABEL: func.func @transposed
// CHECK:         %[[P:.*]] = stablehlo.dot_general
// CHECK-NEXT:    iree_tensor_ext.compute_barrier.start %[[P]]
func.func @transposed(%x: tensor<33x33xf32>, %v: tensor<33xf32>) -> tensor<33x33xf32> {
  %p = stablehlo.dot_general %x, %v, contracting_dims = [1] x [0] : (tensor<33x33xf32>, tensor<33xf32>) -> tensor<33xf32>
  %r = stablehlo.reshape %p : (tensor<33xf32>) -> tensor<33x1xf32>
  %a = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<33x1xf32>) -> tensor<33x33xf32>
  %e = stablehlo.exponential %a : tensor<33x33xf32>
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<33x33xf32>) -> tensor<33x33xf32>
  %d = stablehlo.add %a, %t : tensor<33x33xf32>
  return %d : tensor<33x33xf32>
}

// Negative: read one way only (x - s[None, :] twice), a sum crossed with another sum, a
// scalar sum, and a crossing behind a dot_general (the analysis stops there).
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     compute_barrier
// CHECK:         return
func.func @unchanged(%x: tensor<33x33xf64>, %y: tensor<33x33xf64>) -> (tensor<33x33xf64>, tensor<33x33xf64>, tensor<33x33xf64>, tensor<33x33xf64>) {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<33x33xf64>, tensor<f64>) -> tensor<33xf64>
  %a = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<33xf64>) -> tensor<33x33xf64>
  %a2 = stablehlo.multiply %a, %a : tensor<33x33xf64>
  %d = stablehlo.subtract %x, %a2 : tensor<33x33xf64>
  %t = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<33x33xf64>, tensor<f64>) -> tensor<33xf64>
  %b = stablehlo.broadcast_in_dim %t, dims = [0] : (tensor<33xf64>) -> tensor<33x33xf64>
  %e = stablehlo.multiply %a, %b : tensor<33x33xf64>
  %all = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<33x33xf64>, tensor<f64>) -> tensor<f64>
  %c = stablehlo.broadcast_in_dim %all, dims = [] : (tensor<f64>) -> tensor<33x33xf64>
  %f = stablehlo.multiply %c, %x : tensor<33x33xf64>
  %m = stablehlo.dot_general %a, %x, contracting_dims = [1] x [0] : (tensor<33x33xf64>, tensor<33x33xf64>) -> tensor<33x33xf64>
  %g = stablehlo.add %m, %x : tensor<33x33xf64>
  return %d, %e, %f, %g : tensor<33x33xf64>, tensor<33x33xf64>, tensor<33x33xf64>, tensor<33x33xf64>
}
