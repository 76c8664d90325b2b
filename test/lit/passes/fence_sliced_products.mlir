// RUN: shlo-opt --shlo-fence-sliced-products %s | filecheck %s
// RUN: shlo-opt --shlo-fence-sliced-products --shlo-fence-sliced-products %s | filecheck %s

// Columns of a matrix as the lhs, a transposed part of the last dimension as the rhs: both read
// from behind fusion barriers (IREE 3.13's data-tiled pack of such a slice failed).
// CHECK-LABEL: func.func @columns
// CHECK:         %[[S:.*]] = stablehlo.slice %arg0 [0:256, 0:32]
// CHECK:         %[[T:.*]] = stablehlo.transpose
// CHECK-DAG:     %[[A:.*]] = iree_tensor_ext.compute_barrier.start %[[S]]
// CHECK-DAG:     %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[T]]
// CHECK:         stablehlo.dot_general %[[A]], %[[B]]
func.func @columns(%x: tensor<256x64xf32>) -> tensor<256x256xf32> {
  %0 = stablehlo.slice %x [0:256, 0:32] : (tensor<256x64xf32>) -> tensor<256x32xf32>
  %1 = stablehlo.slice %x [0:256, 32:64] : (tensor<256x64xf32>) -> tensor<256x32xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<256x32xf32>) -> tensor<32x256xf32>
  %3 = stablehlo.dot_general %0, %2, contracting_dims = [1] x [0] : (tensor<256x32xf32>, tensor<32x256xf32>) -> tensor<256x256xf32>
  return %3 : tensor<256x256xf32>
}

// Strided rows, and rows of each matrix of a batched product: fenced.
// CHECK-LABEL: func.func @strided_and_batched
// CHECK-COUNT-2: iree_tensor_ext.compute_barrier.start
func.func @strided_and_batched(%x: tensor<512x64xf32>, %z: tensor<64x256xf32>, %b: tensor<8x256x64xf32>, %w: tensor<8x64x128xf32>) -> (tensor<256x256xf32>, tensor<8x128x128xf32>) {
  %0 = stablehlo.slice %x [0:512:2, 0:64] : (tensor<512x64xf32>) -> tensor<256x64xf32>
  %1 = stablehlo.dot_general %0, %z, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  %2 = stablehlo.slice %b [0:8, 0:128, 0:64] : (tensor<8x256x64xf32>) -> tensor<8x128x64xf32>
  %3 = stablehlo.dot_general %2, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
  return %1, %3 : tensor<256x256xf32>, tensor<8x128x128xf32>
}

// Whole rows (contiguous), parts of the rows of an unbatched product (a convolution's phases),
// and a slice read through a reshape: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     compute_barrier
// CHECK:         return
func.func @unchanged(%x: tensor<512x64xf32>, %z: tensor<64x256xf32>, %c: tensor<16x9x8x64xf32>, %y: tensor<8x64x3x128xf32>, %w: tensor<128x32xf32>) -> (tensor<256x256xf32>, tensor<16x8x8x256xf32>, tensor<512x32xf32>) {
  %0 = stablehlo.slice %x [0:256, 0:64] : (tensor<512x64xf32>) -> tensor<256x64xf32>
  %1 = stablehlo.dot_general %0, %z, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  %2 = stablehlo.slice %c [0:16, 1:9, 0:8, 0:64] : (tensor<16x9x8x64xf32>) -> tensor<16x8x8x64xf32>
  %3 = stablehlo.dot_general %2, %z, contracting_dims = [3] x [0] : (tensor<16x8x8x64xf32>, tensor<64x256xf32>) -> tensor<16x8x8x256xf32>
  %4 = stablehlo.slice %y [0:8, 0:64, 1:2, 0:128] : (tensor<8x64x3x128xf32>) -> tensor<8x64x1x128xf32>
  %5 = stablehlo.reshape %4 : (tensor<8x64x1x128xf32>) -> tensor<512x128xf32>
  %6 = stablehlo.dot_general %5, %w, contracting_dims = [1] x [0] : (tensor<512x128xf32>, tensor<128x32xf32>) -> tensor<512x32xf32>
  return %1, %3, %6 : tensor<256x256xf32>, tensor<16x8x8x256xf32>, tensor<512x32xf32>
}

// A widening product's result read by a column slice: the slice reads it from behind a
// barrier (fused into the unpacking, LLVM took 71 s over a 128x128 int8 product); an f32
// product's and a row slice stay fused.
// CHECK-LABEL: func.func @sliced_result
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg0
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[D]]
// CHECK:         stablehlo.slice %[[B]] [0:64, 0:50]
// CHECK:         %[[F:.*]] = stablehlo.dot_general %arg1, %arg1
// CHECK-NEXT:    stablehlo.slice %[[F]] [0:64, 0:50]
func.func @sliced_result(%a: tensor<64x64xi8>, %x: tensor<64x64xf32>) -> (tensor<64x50xi32>, tensor<64x50xf32>) {
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<64x64xi8>, tensor<64x64xi8>) -> tensor<64x64xi32>
  %1 = stablehlo.slice %0 [0:64, 0:50] : (tensor<64x64xi32>) -> tensor<64x50xi32>
  %2 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = stablehlo.slice %2 [0:64, 0:50] : (tensor<64x64xf32>) -> tensor<64x50xf32>
  return %1, %3 : tensor<64x50xi32>, tensor<64x50xf32>
}
