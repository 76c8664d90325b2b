// RUN: shlo-opt '--pass-pipeline=builtin.module(shlo-split-long-reduce{threads=false max-length=16})' %s | filecheck %s

// A sum of 64 elements in blocks of 16 (in order), then over the blocks.
// CHECK-LABEL: func.func @sum
// CHECK:         %[[B:.*]] = stablehlo.reshape %arg0 : (tensor<64xf32>) -> tensor<4x16xf32>
// CHECK:         %[[P:.*]] = stablehlo.reduce(%[[B]] init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:         stablehlo.reduce(%[[P]] init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
func.func @sum(%x: tensor<64xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// A length no block size divides is padded with the body's identity (-inf for a maximum);
// the blocks take the identity as init, the last stage the op's own init.
// CHECK-LABEL: func.func @max_padded
// CHECK:         %[[SEVEN:.*]] = stablehlo.constant dense<7.000000e+00>
// CHECK:         %[[NINF:.*]] = stablehlo.constant dense<0xFF800000>
// CHECK:         stablehlo.pad %arg0, %[[NINF]], low = [0, 0], high = [0, 2], interior = [0, 0] : (tensor<2x37xf32>, tensor<f32>) -> tensor<2x39xf32>
// CHECK:         stablehlo.reshape %{{.*}} : (tensor<2x39xf32>) -> tensor<2x3x13xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %[[NINF]]) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x13xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %[[SEVEN]]) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @max_padded(%x: tensor<2x37xf32>) -> tensor<2xf32> {
  %z = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<2x37xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A two-operand reduce over the first and last of three dimensions: the outer reduced
// dimension is cut, so blocks stay consecutive in index order; both operands alike.
// CHECK-LABEL: func.func @variadic
// CHECK:         stablehlo.reshape %arg0 : (tensor<8x3x4xf32>) -> tensor<2x4x3x4xf32>
// CHECK:         stablehlo.reshape %arg1 : (tensor<8x3x4xi32>) -> tensor<2x4x3x4xi32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1, 3] : {{.*}} -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [0] : {{.*}} -> (tensor<3xf32>, tensor<3xi32>)
func.func @variadic(%x: tensor<8x3x4xf32>, %i: tensor<8x3x4xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [0, 2] : (tensor<8x3x4xf32>, tensor<8x3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %e: tensor<i32>) {
      %s0 = stablehlo.add %a, %b : tensor<f32>
      %s1 = stablehlo.add %c, %e : tensor<i32>
      stablehlo.return %s0, %s1 : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
}

// A cumulative sum of 40: scans within 3 blocks of 14 (padded at the end), a scan of the
// block totals, each block's exclusive prefix combined with it by the body's op, sliced back.
// CHECK-LABEL: func.func @cumsum
// CHECK:         stablehlo.reshape %{{.*}} : (tensor<42xf32>) -> tensor<3x14xf32>
// CHECK:         "stablehlo.reduce_window"{{.*}}padding = dense<{{\[\[}}0, 0], [13, 0]]>{{.*}}window_dimensions = array<i64: 1, 14>
// CHECK:         stablehlo.slice %{{.*}} [0:3, 13:14]
// CHECK:         "stablehlo.reduce_window"{{.*}}padding = dense<{{\[\[}}2, 0]]>{{.*}}window_dimensions = array<i64: 3>
// CHECK:         stablehlo.concatenate
// CHECK:         %[[P:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [0] : (tensor<3xf32>) -> tensor<3x14xf32>
// CHECK:         stablehlo.add %[[P]], %{{.*}} : tensor<3x14xf32>
// CHECK:         stablehlo.slice %{{.*}} [0:40] : (tensor<42xf32>) -> tensor<40xf32>
func.func @cumsum(%x: tensor<40xf32>) -> tensor<40xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 40>, padding = dense<[[39, 0]]> : tensor<1x2xi64>} : (tensor<40xf32>, tensor<f32>) -> tensor<40xf32>
  return %0 : tensor<40xf32>
}

// A dot_general contracting 64: 4 blocks of 16 as a batch dimension, then summed.
// CHECK-LABEL: func.func @dot
// CHECK:         stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<3x4x16xf32>, tensor<4x16x2xf32>) -> tensor<4x3x2xf32>
// CHECK:         stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4x3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
func.func @dot(%x: tensor<3x64xf32>, %y: tensor<64x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<3x64xf32>, tensor<64x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Short reductions stay as they are.
// CHECK-LABEL: func.func @short
// CHECK-NOT:     stablehlo.reshape
// CHECK:         return
func.func @short(%x: tensor<100x16xf32>) -> tensor<100xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<100x16xf32>, tensor<f32>) -> tensor<100xf32>
  return %0 : tensor<100xf32>
}

// A run-time sized sum is not split: a run-time check that it reads at most 16 per result.
// CHECK-LABEL: func.func @dynamic_sum
// CHECK:         stablehlo.get_dimension_size %arg0
// CHECK:         %[[OK:.*]] = stablehlo.compare LE
// CHECK:         %[[FLAG:.*]] = tensor.extract %[[OK]]
// CHECK:         cf.assert %[[FLAG]], "shape check failed: stablehlo.reduce {{.*}}reads more than 16 elements per result
// CHECK:         stablehlo.reduce(%arg0
func.func @dynamic_sum(%x: tensor<?xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// A scatter of 600 updates: more than 16 chunks of 16, so its 37 whole chunks are loops over
// dynamic slices of the indices and updates (fenced where an op computes them): 16 trips of 2
// chunks, 5 trips of one; then the last 8 updates in line.
// CHECK-LABEL: func.func @long_scatter
// CHECK:         %[[U:.*]] = iree_tensor_ext.compute_barrier.start %{{.*}} : tensor<600xf32>
// CHECK:         %[[L:.*]]:2 = stablehlo.while(%[[K:.*]] = %{{.*}}, %[[X:.*]] = %arg0)
// CHECK:           stablehlo.compare LT, %[[K]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:           %[[B:.*]] = stablehlo.multiply %[[K]], %{{.*}} : tensor<i32>
// CHECK:           %[[S:.*]] = stablehlo.multiply %[[B]], %{{.*}} : tensor<i32>
// CHECK:           stablehlo.dynamic_slice %arg1, %[[S]], %{{.*}}, sizes = [16, 1]
// CHECK:           stablehlo.dynamic_slice %[[U]], %{{.*}}, sizes = [16]
// CHECK:           %[[Y:.*]] = "stablehlo.scatter"(%[[X]]
// CHECK:           (tensor<50xf32>, tensor<16x1xi32>, tensor<16xf32>) -> tensor<50xf32>
// CHECK:           "stablehlo.scatter"(%[[Y]]
// CHECK:           (tensor<50xf32>, tensor<16x1xi32>, tensor<16xf32>) -> tensor<50xf32>
// CHECK-NEXT:      stablehlo.return
// CHECK:         %[[M:.*]]:2 = stablehlo.while(%{{.*}} = %{{.*}}, %{{.*}} = %[[L]]#1)
// CHECK:           stablehlo.compare LT, %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:           "stablehlo.scatter"
// CHECK:           (tensor<50xf32>, tensor<16x1xi32>, tensor<16xf32>) -> tensor<50xf32>
// CHECK-NEXT:      stablehlo.return
// CHECK:         stablehlo.slice %arg1 [592:600, 0:1]
// CHECK:         "stablehlo.scatter"(%[[M]]#1
// CHECK:         (tensor<50xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<50xf32>
// CHECK-NOT:     stablehlo.scatter
func.func @long_scatter(%x: tensor<50xf32>, %i: tensor<600x1xi32>, %v: tensor<600xf32>) -> tensor<50xf32> {
  %u = stablehlo.negate %v : tensor<600xf32>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {shlo.canonical} : (tensor<50xf32>, tensor<600x1xi32>, tensor<600xf32>) -> tensor<50xf32>
  return %0 : tensor<50xf32>
}
