// RUN: shlo-opt --shlo-widen-narrow-matmuls %s | filecheck %s

// bf16 operands: f32 copies behind fusion barriers (IREE would fuse the conversions back
// into its slow bf16 matmul), an f32 product, converted to the result type.
// CHECK-LABEL: func.func @bf16_matmul
// CHECK-DAG:     %[[A:.*]] = stablehlo.convert %arg0 : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK-DAG:     %[[B:.*]] = stablehlo.convert %arg1 : (tensor<8x2xbf16>) -> tensor<8x2xf32>
// CHECK-DAG:     %[[WA:.*]] = iree_tensor_ext.compute_barrier.start %[[A]]
// CHECK-DAG:     %[[WB:.*]] = iree_tensor_ext.compute_barrier.start %[[B]]
// CHECK:         %[[P:.*]] = stablehlo.dot_general %[[WA]], %[[WB]], contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK:         stablehlo.convert %[[P]] : (tensor<4x2xf32>) -> tensor<4x2xbf16>
func.func @bf16_matmul(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  return %r : tensor<4x2xbf16>
}

// f32 matmuls stay.
// CHECK-LABEL: func.func @f32_matmul
// CHECK-NOT:     barrier
func.func @f32_matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
