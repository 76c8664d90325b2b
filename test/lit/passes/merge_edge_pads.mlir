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

// A pad of a pad by another value (edge-only or not): the inner pad is fenced (IREE 3.13's cpu
// compile failed on the pair where the inner pad's operand was computed).
// CHECK-LABEL: func.func @fenced_other_value
// CHECK:         %[[I:.*]] = stablehlo.pad %[[E:.*]], %{{.*}}, low = [0], high = [2], interior = [2]
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[I]]
// CHECK:         stablehlo.pad %[[B]], %{{.*}}, low = [0], high = [78], interior = [0]
// CHECK:         %[[J:.*]] = stablehlo.pad %[[E]], %{{.*}}, low = [7], high = [7], interior = [0]
// CHECK:         %[[C:.*]] = iree_tensor_ext.compute_barrier.start %[[J]]
// CHECK:         stablehlo.pad %[[C]], %{{.*}}, low = [1], high = [0], interior = [0]
func.func @fenced_other_value(%x: tensor<2xf32>) -> (tensor<84xf32>, tensor<17xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %o = stablehlo.constant dense<1.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<2xf32>
  %0 = stablehlo.pad %e, %z, low = [0], high = [2], interior = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.pad %0, %o, low = [0], high = [78], interior = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<84xf32>
  %2 = stablehlo.pad %e, %z, low = [7], high = [7], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<16xf32>
  %3 = stablehlo.pad %2, %o, low = [1], high = [0], interior = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<17xf32>
  return %1, %3 : tensor<84xf32>, tensor<17xf32>
}

// A pad of a computed value padded by another value is fenced after the inner pad, and so is
// a one-element window with padding, which IREE lowers as a pad (fuzz seed 102 program 363);
// a window of two elements is not.
// CHECK-LABEL: func.func @padded_twice
// CHECK:         %[[P:.*]] = stablehlo.pad %{{.*}}, %arg2
// CHECK:         %[[F:.*]] = iree_tensor_ext.compute_barrier.start %[[P]]
// CHECK:         stablehlo.pad %[[F]], %arg3
// CHECK:         %[[W:.*]] = "stablehlo.reduce_window"
// CHECK:         %[[G:.*]] = iree_tensor_ext.compute_barrier.start %[[W]]
// CHECK:         stablehlo.pad %[[G]], %arg3
// CHECK:         %[[W2:.*]] = "stablehlo.reduce_window"
// CHECK-NOT:     compute_barrier
// CHECK:         stablehlo.pad %[[W2]], %arg3
func.func @padded_twice(%x: tensor<4xf32>, %y: tensor<4xf32>, %a: tensor<f32>, %b: tensor<f32>)
    -> (tensor<6xf32>, tensor<6xf32>, tensor<5xf32>) {
  %m = stablehlo.minimum %x, %y : tensor<4xf32>
  %p = stablehlo.pad %m, %a, low = [0], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %r = stablehlo.pad %p, %b, low = [0], high = [1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<6xf32>
  %w = "stablehlo.reduce_window"(%m, %a) <{window_dimensions = array<i64: 1>, window_dilations = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %s = stablehlo.maximum %u, %v : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  %q = stablehlo.pad %w, %b, low = [0], high = [1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<6xf32>
  %w2 = "stablehlo.reduce_window"(%m, %a) <{window_dimensions = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %s = stablehlo.maximum %u, %v : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %q2 = stablehlo.pad %w2, %b, low = [0], high = [1], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<5xf32>
  return %r, %q, %q2 : tensor<6xf32>, tensor<6xf32>, tensor<5xf32>
}

// Left alone: two edge-only pads by the same value.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: stablehlo.pad
// CHECK-NOT:     compute_barrier
func.func @kept(%x: tensor<2xf32>) -> tensor<10xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.pad %x, %z, low = [1], high = [1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.pad %3, %z, low = [0], high = [6], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<10xf32>
  return %4 : tensor<10xf32>
}
