// RUN: shlo-opt --shlo-fence-gathered-slices %s | filecheck %s
// RUN: shlo-opt --shlo-fence-gathered-slices --shlo-fence-gathered-slices %s | filecheck %s

// A column of a 3-D value reversed through a reshape, and every other element gathered: each
// slice read from behind a fusion barrier (IREE 3.13's llvm-cpu codegen of an indexed load
// from a strided view failed).
// CHECK-LABEL: func.func @strided
// CHECK:         %[[C:.*]] = stablehlo.slice %arg0 [0:1, 0:64, 1:2]
// CHECK-NEXT:    %[[CB:.*]] = iree_tensor_ext.compute_barrier.start %[[C]]
// CHECK-NEXT:    %[[R:.*]] = stablehlo.reshape %[[CB]]
// CHECK-NEXT:    stablehlo.reverse %[[R]], dims = [0]
// CHECK:         %[[E:.*]] = stablehlo.slice %arg1 [0:64:2]
// CHECK-NEXT:    %[[EB:.*]] = iree_tensor_ext.compute_barrier.start %[[E]]
// CHECK-NEXT:    "stablehlo.gather"(%[[EB]], %arg2)
// CHECK-NOT:     compute_barrier
func.func @strided(%x: tensor<1x64x8xf32>, %y: tensor<64xi32>, %i: tensor<4x1xi32>)
    -> (tensor<64xf32>, tensor<4xi32>) {
  %0 = stablehlo.slice %x [0:1, 0:64, 1:2] : (tensor<1x64x8xf32>) -> tensor<1x64x1xf32>
  %1 = stablehlo.reshape %0 : (tensor<1x64x1xf32>) -> tensor<64xf32>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<64xf32>
  %3 = stablehlo.slice %y [0:64:2] : (tensor<64xi32>) -> tensor<32xi32>
  %4 = "stablehlo.gather"(%3, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<32xi32>, tensor<4x1xi32>) -> tensor<4xi32>
  return %2, %4 : tensor<64xf32>, tensor<4xi32>
}

// A gather of a strided slice through a dynamic_slice of all of it, and through a transpose
// and a convert: the strided slice is fenced.
// CHECK-LABEL: func.func @through_views
// CHECK:         %[[S:.*]] = stablehlo.slice %arg0 [230:235:2]
// CHECK-NEXT:    %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[S]]
// CHECK-NEXT:    stablehlo.dynamic_slice %[[B]]
// CHECK:         %[[T:.*]] = stablehlo.slice %arg3 [0:4, 0:8:2]
// CHECK-NEXT:    %[[TB:.*]] = iree_tensor_ext.compute_barrier.start %[[T]]
// CHECK-NEXT:    stablehlo.transpose %[[TB]]
func.func @through_views(%x: tensor<256xi32>, %s: tensor<i32>, %i: tensor<5x1xi32>, %y: tensor<4x8xf16>)
    -> (tensor<5xi32>, tensor<5x4xf32>) {
  %a = stablehlo.slice %x [230:235:2] : (tensor<256xi32>) -> tensor<3xi32>
  %d = stablehlo.dynamic_slice %a, %s, sizes = [3] : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %g = "stablehlo.gather"(%d, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<3xi32>, tensor<5x1xi32>) -> tensor<5xi32>
  %t = stablehlo.slice %y [0:4, 0:8:2] : (tensor<4x8xf16>) -> tensor<4x4xf16>
  %u = stablehlo.transpose %t, dims = [1, 0] : (tensor<4x4xf16>) -> tensor<4x4xf16>
  %c = stablehlo.convert %u : (tensor<4x4xf16>) -> tensor<4x4xf32>
  %h = "stablehlo.gather"(%c, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<4x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  return %g, %h : tensor<5xi32>, tensor<5x4xf32>
}

// A reverse of a strided slice through a bitcast_convert (shlo-legalize-integer-ops' signless
// view of unsigned values), and of a dynamic_slice whose rows lie apart (a column): fenced.
// CHECK-LABEL: func.func @reversed_views
// CHECK:         %[[S:.*]] = stablehlo.slice %arg0 [2:1024:5]
// CHECK-NEXT:    %[[SI:.*]] = stablehlo.bitcast_convert %[[S]] : (tensor<205xui8>) -> tensor<205xi8>
// CHECK-NEXT:    iree_tensor_ext.compute_barrier.start %[[SI]]
// CHECK:         %[[D:.*]] = stablehlo.dynamic_slice %arg1, %arg2, %arg2, sizes = [5, 1]
// CHECK-NEXT:    %[[DB:.*]] = iree_tensor_ext.compute_barrier.start %[[D]]
// CHECK-NEXT:    stablehlo.reverse %[[DB]], dims = [0]
func.func @reversed_views(%x: tensor<1024xui8>, %y: tensor<6x8xbf16>, %i: tensor<i32>)
    -> (tensor<205xi8>, tensor<5x1xbf16>) {
  %0 = stablehlo.slice %x [2:1024:5] : (tensor<1024xui8>) -> tensor<205xui8>
  %1 = stablehlo.bitcast_convert %0 : (tensor<205xui8>) -> tensor<205xi8>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<205xi8>
  %3 = stablehlo.dynamic_slice %y, %i, %i, sizes = [5, 1] : (tensor<6x8xbf16>, tensor<i32>, tensor<i32>) -> tensor<5x1xbf16>
  %4 = stablehlo.reverse %3, dims = [0] : tensor<5x1xbf16>
  return %2, %4 : tensor<205xi8>, tensor<5x1xbf16>
}

// Contiguous slices (part of a row, whole rows), a strided slice read through another op, and
// a strided slice that no gather or reverse reads stay as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compute_barrier
func.func @left_alone(%x: tensor<8x64xf32>) -> (tensor<59xf32>, tensor<2x64xf32>, tensor<32xf32>, tensor<32xf32>) {
  %0 = stablehlo.slice %x [3:4, 5:64] : (tensor<8x64xf32>) -> tensor<1x59xf32>
  %1 = stablehlo.reshape %0 : (tensor<1x59xf32>) -> tensor<59xf32>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<59xf32>
  %3 = stablehlo.slice %x [2:4, 0:64] : (tensor<8x64xf32>) -> tensor<2x64xf32>
  %4 = stablehlo.reverse %3, dims = [0, 1] : tensor<2x64xf32>
  %5 = stablehlo.slice %x [0:1, 0:64:2] : (tensor<8x64xf32>) -> tensor<1x32xf32>
  %6 = stablehlo.reshape %5 : (tensor<1x32xf32>) -> tensor<32xf32>
  %7 = stablehlo.negate %6 : tensor<32xf32>
  %8 = stablehlo.reverse %7, dims = [0] : tensor<32xf32>
  %9 = stablehlo.slice %x [1:2, 0:64:2] : (tensor<8x64xf32>) -> tensor<1x32xf32>
  %10 = stablehlo.reshape %9 : (tensor<1x32xf32>) -> tensor<32xf32>
  return %2, %4, %8, %10 : tensor<59xf32>, tensor<2x64xf32>, tensor<32xf32>, tensor<32xf32>
}
