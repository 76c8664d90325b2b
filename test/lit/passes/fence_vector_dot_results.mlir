// RUN: shlo-opt --shlo-fence-vector-dot-results %s | filecheck %s

// A vector-matrix product converted directly and through a broadcast: its result is fenced.
// CHECK-LABEL: func.func @vecmat
// CHECK:         %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT:    %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[D]]
// CHECK:         stablehlo.broadcast_in_dim %[[F]]
// CHECK:         stablehlo.convert %[[F]]
func.func @vecmat(%a: tensor<1x2xi8>, %b: tensor<2x8xi8>) -> (tensor<1x8x2xf32>, tensor<1x8xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2xi8>, tensor<2x8xi8>) -> tensor<1x8xi8>
  %w = stablehlo.broadcast_in_dim %d, dims = [0, 1] : (tensor<1x8xi8>) -> tensor<1x8x2xi8>
  %0 = stablehlo.convert %w : (tensor<1x8x2xi8>) -> tensor<1x8x2xf32>
  %1 = stablehlo.convert %d : (tensor<1x8xi8>) -> tensor<1x8xf32>
  return %0, %1 : tensor<1x8x2xf32>, tensor<1x8xf32>
}

// A matrix-vector product computed in f32 and converted back to f16 (shlo-accumulate-in-f32):
// the convert that alone reads the dot is fenced.
// CHECK-LABEL: func.func @matvec_through_convert
// CHECK:         %[[D:.*]] = stablehlo.dot_general
// CHECK-NEXT:    %[[H:.*]] = stablehlo.convert %[[D]]
// CHECK-NEXT:    iree_tensor_ext.compute_barrier.start %[[H]]
func.func @matvec_through_convert(%a: tensor<4x2xf32>, %b: tensor<2x1xf32>) -> (tensor<4x1x2xf32>, tensor<4x1xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
  %h = stablehlo.convert %d : (tensor<4x1xf32>) -> tensor<4x1xf16>
  %w = stablehlo.broadcast_in_dim %h, dims = [0, 1] : (tensor<4x1xf16>) -> tensor<4x1x2xf16>
  %0 = stablehlo.convert %w : (tensor<4x1x2xf16>) -> tensor<4x1x2xf32>
  %1 = stablehlo.convert %h : (tensor<4x1xf16>) -> tensor<4x1xf32>
  return %0, %1 : tensor<4x1x2xf32>, tensor<4x1xf32>
}

// A matrix product, a vector product read by one convert only, a rank-1 lhs and a batched
// vector-matrix product are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compute_barrier
func.func @left_alone(%a: tensor<2x2xi8>, %b: tensor<2x8xi8>, %v: tensor<1x2xi8>, %r1: tensor<2xi8>, %p: tensor<3x1x2xi8>, %q: tensor<3x2x8xi8>) -> (tensor<2x8x2xf32>, tensor<2x8xf32>, tensor<1x8xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<3x1x8x2xf32>, tensor<3x1x8xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x8xi8>) -> tensor<2x8xi8>
  %w = stablehlo.broadcast_in_dim %d, dims = [0, 1] : (tensor<2x8xi8>) -> tensor<2x8x2xi8>
  %0 = stablehlo.convert %w : (tensor<2x8x2xi8>) -> tensor<2x8x2xf32>
  %1 = stablehlo.convert %d : (tensor<2x8xi8>) -> tensor<2x8xf32>
  %e = stablehlo.dot_general %v, %b, contracting_dims = [1] x [0] : (tensor<1x2xi8>, tensor<2x8xi8>) -> tensor<1x8xi8>
  %2 = stablehlo.convert %e : (tensor<1x8xi8>) -> tensor<1x8xf32>
  %f = stablehlo.dot_general %r1, %b, contracting_dims = [0] x [0] : (tensor<2xi8>, tensor<2x8xi8>) -> tensor<8xi8>
  %fw = stablehlo.broadcast_in_dim %f, dims = [0] : (tensor<8xi8>) -> tensor<8x2xi8>
  %3 = stablehlo.convert %fw : (tensor<8x2xi8>) -> tensor<8x2xf32>
  %4 = stablehlo.convert %f : (tensor<8xi8>) -> tensor<8xf32>
  %g = stablehlo.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x1x2xi8>, tensor<3x2x8xi8>) -> tensor<3x1x8xi8>
  %gw = stablehlo.broadcast_in_dim %g, dims = [0, 1, 2] : (tensor<3x1x8xi8>) -> tensor<3x1x8x2xi8>
  %5 = stablehlo.convert %gw : (tensor<3x1x8x2xi8>) -> tensor<3x1x8x2xf32>
  %6 = stablehlo.convert %g : (tensor<3x1x8xi8>) -> tensor<3x1x8xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x8x2xf32>, tensor<2x8xf32>, tensor<1x8xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<3x1x8x2xf32>, tensor<3x1x8xf32>
}
