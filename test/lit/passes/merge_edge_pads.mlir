// RUN: shlo-opt --shlo-merge-edge-pads %s | filecheck %s
// RUN: shlo-opt --shlo-merge-edge-pads --shlo-merge-edge-pads %s | filecheck %s

// An edge pad of an interior pad by the same value: one pad, the edges added (IREE 3.13 folded
// the pair and dropped the interior padding).
// CHECK-LABEL: func.func @merged
// CHECK:         %[[P:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [3, 0], high = [80, 1], interior = [2, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<87x5xf32>
// CHECK-NEXT:    return %[[P]]
func.func @merged(%x: tensor<2x4xf32>) -> tensor<87x5xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [0, 0], high = [2, 0], interior = [2, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<6x4xf32>
  %1 = stablehlo.pad %0, %w, low = [3, 0], high = [78, 1], interior = [0, 0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<87x5xf32>
  return %1 : tensor<87x5xf32>
}

// An outer edge that cuts into the interior-padded operand: still one pad.
// CHECK-LABEL: func.func @merged_cut
// CHECK:         stablehlo.pad %arg0, %arg1, low = [-2], high = [0], interior = [1] : (tensor<5xi32>, tensor<i32>) -> tensor<7xi32>
func.func @merged_cut(%x: tensor<5xi32>, %v: tensor<i32>) -> tensor<7xi32> {
  %0 = stablehlo.pad %x, %v, low = [1], high = [0], interior = [1] : (tensor<5xi32>, tensor<i32>) -> tensor<10xi32>
  %1 = stablehlo.pad %0, %v, low = [-3], high = [0], interior = [0] : (tensor<10xi32>, tensor<i32>) -> tensor<7xi32>
  return %1 : tensor<7xi32>
}

// An inner edge that cuts, an outer one that adds: not one pad; the inner pad is fenced.
// CHECK-LABEL: func.func @fenced
// CHECK:         %[[I:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [-1], high = [0], interior = [2]
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[I]]
// CHECK:         stablehlo.pad %[[B]], %{{.*}}, low = [2], high = [0], interior = [0]
func.func @fenced(%x: tensor<5xf32>) -> tensor<14xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [-1], high = [0], interior = [2] : (tensor<5xf32>, tensor<f32>) -> tensor<12xf32>
  %1 = stablehlo.pad %0, %z, low = [2], high = [0], interior = [0] : (tensor<12xf32>, tensor<f32>) -> tensor<14xf32>
  return %1 : tensor<14xf32>
}

// An outer pad with interior padding (after an edge or an interior pad): fenced.
// CHECK-LABEL: func.func @fenced_outer_interior
// CHECK:         %[[I:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [2], high = [1], interior = [0]
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[I]]
// CHECK:         stablehlo.pad %[[B]], %{{.*}}, low = [0], high = [0], interior = [1]
func.func @fenced_outer_interior(%x: tensor<3xf32>) -> tensor<11xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [2], high = [1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.pad %0, %z, low = [0], high = [0], interior = [1] : (tensor<6xf32>, tensor<f32>) -> tensor<11xf32>
  return %1 : tensor<11xf32>
}

// Left alone: other padding values, two edge-only pads.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: stablehlo.pad
// CHECK-NOT:     compute_barrier
func.func @kept(%x: tensor<2xf32>) -> (tensor<84xf32>, tensor<10xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %o = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.pad %x, %z, low = [0], high = [2], interior = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.pad %0, %o, low = [0], high = [78], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<84xf32>
  %3 = stablehlo.pad %x, %z, low = [1], high = [1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.pad %3, %z, low = [0], high = [6], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<10xf32>
  return %1, %4 : tensor<84xf32>, tensor<10xf32>
}
