// RUN: shlo-opt --shlo-fence-scalar-scatter-updates %s | filecheck %s
// RUN: shlo-opt --shlo-fence-scalar-scatter-updates --shlo-fence-scalar-scatter-updates %s | filecheck %s --check-prefix=TWICE

// A one-element view of a lower-rank slice, whatever reads it (here a pad, and the function's
// return): every reader reads the scalar behind an optimization_barrier, reshaped back.
// CHECK-LABEL: func.func @padded
// CHECK:         %[[S:.*]] = stablehlo.dynamic_slice
// CHECK-NEXT:    %[[V:.*]] = stablehlo.reshape %[[S]] : (tensor<1xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:    %[[C:.*]] = stablehlo.reshape %[[V]] : (tensor<1x1x1xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[B]] : (tensor<f32>) -> tensor<1x1x1xf32>
// CHECK:         %[[P:.*]] = stablehlo.pad %[[R]]
// CHECK:         return %[[P]], %[[R]]
// TWICE-LABEL: func.func @padded
// TWICE-COUNT-1: optimization_barrier
// TWICE-NOT:     optimization_barrier
// TWICE-LABEL: func.func @jax_element
func.func @padded(%x: tensor<8xf32>, %i: tensor<i32>) -> (tensor<3x3x3xf32>, tensor<1x1x1xf32>) {
  %s = stablehlo.dynamic_slice %x, %i, sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
  %v = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<1x1x1xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %v, %z, low = [1, 1, 1], high = [1, 1, 1], interior = [0, 0, 0] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<3x3x3xf32>
  return %p, %v : tensor<3x3x3xf32>, tensor<1x1x1xf32>
}

// jax's x[1] (a slice reshaped to a scalar) broadcast to 1x1, then viewed as 1x1x1: the
// innermost view of rank 2 or more is fenced, once; the outer view reads the fence.
// CHECK-LABEL: func.func @jax_element
// CHECK:         %[[E:.*]] = stablehlo.reshape %{{.*}} : (tensor<1xi16>) -> tensor<i16>
// CHECK-NEXT:    %[[V:.*]] = stablehlo.broadcast_in_dim %[[E]], dims = [] : (tensor<i16>) -> tensor<1x1xi16>
// CHECK-NEXT:    %[[C:.*]] = stablehlo.reshape %[[V]] : (tensor<1x1xi16>) -> tensor<i16>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.optimization_barrier %[[C]] : tensor<i16>
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[B]] : (tensor<i16>) -> tensor<1x1xi16>
// CHECK-NEXT:    %[[W:.*]] = stablehlo.reshape %[[R]] : (tensor<1x1xi16>) -> tensor<1x1x1xi16>
// CHECK-NOT:     optimization_barrier
// CHECK:         return %[[W]]
func.func @jax_element(%x: tensor<3xi16>) -> tensor<1x1x1xi16> {
  %s = stablehlo.slice %x [1:2] : (tensor<3xi16>) -> tensor<1xi16>
  %e = stablehlo.reshape %s : (tensor<1xi16>) -> tensor<i16>
  %v = stablehlo.broadcast_in_dim %e, dims = [] : (tensor<i16>) -> tensor<1x1xi16>
  %w = stablehlo.reshape %v : (tensor<1x1xi16>) -> tensor<1x1x1xi16>
  return %w : tensor<1x1x1xi16>
}

// Left alone: a view of rank at most the slice's source's (1x1 of a 2-D slice), a view of a
// slice of a constant, a view of a computed element (not a slice), and a view that nothing
// reads.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     optimization_barrier
// CHECK:         return
func.func @left_alone(%m: tensor<4x4xf32>, %x: tensor<8xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %s = stablehlo.slice %m [1:2, 2:3] : (tensor<4x4xf32>) -> tensor<1x1xf32>
  %e = stablehlo.reshape %s : (tensor<1x1xf32>) -> tensor<1xf32>
  %v = stablehlo.reshape %e : (tensor<1xf32>) -> tensor<1x1xf32>
  %k = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %ks = stablehlo.slice %k [0:1] : (tensor<2xf32>) -> tensor<1xf32>
  %kv = stablehlo.reshape %ks : (tensor<1xf32>) -> tensor<1x1xf32>
  %xs = stablehlo.slice %x [0:1] : (tensor<8xf32>) -> tensor<1xf32>
  %n = stablehlo.negate %xs : tensor<1xf32>
  %nv = stablehlo.reshape %n : (tensor<1xf32>) -> tensor<1x1xf32>
  %unread = stablehlo.reshape %xs : (tensor<1xf32>) -> tensor<1x1xf32>
  return %v, %kv, %nv : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}
