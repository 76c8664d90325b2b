// RUN: shlo-opt --shlo-expand-select-and-scatter --split-input-file --verify-diagnostics %s | filecheck %s
// select_and_scatter: per window element a strided slice of the padded operand, of its flat
// positions (-1 in the padding) and of an in-bounds mask; a left fold with `select` through
// stablehlo.map; one scatter of the source at the selected positions.

// CHECK-LABEL: func.func @padded
// CHECK:         %[[FLAT:.*]] = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK:         %[[V:.*]] = stablehlo.pad %arg0, {{.*}}, low = [2], high = [0]
// CHECK:         %[[POS:.*]] = stablehlo.pad %[[FLAT]], {{.*}}, low = [2], high = [0]
// CHECK:         %[[OK:.*]] = stablehlo.pad {{.*}} : (tensor<4xi1>, tensor<i1>) -> tensor<6xi1>
// CHECK:         stablehlo.slice %[[V]] [0:5:2]
// CHECK:         stablehlo.slice %[[V]] [1:6:2]
// CHECK:         "stablehlo.map"
// CHECK:           stablehlo.compare GE
// CHECK:         %[[I:.*]] = stablehlo.select
// CHECK:         %[[R:.*]] = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[J:.*]] = stablehlo.reshape %[[I]] : (tensor<3xi32>) -> tensor<3x1xi32>
// CHECK:         "stablehlo.scatter"(%[[R]], %[[J]], %arg1)
// CHECK:           stablehlo.add
// CHECK-NOT:     stablehlo.select_and_scatter
func.func @padded(%x: tensor<4xf32>, %s: tensor<3xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Negative: dynamic shapes are left to IREE. An unpadded window too large to unroll (one
// window over all 300 elements) is reductions in index order (long_select_windows).
// CHECK-LABEL: func.func @left_alone
// CHECK:         "stablehlo.select_and_scatter"(%arg0
// CHECK-NOT:     "stablehlo.select_and_scatter"
// CHECK:         stablehlo.reduce
func.func @left_alone(%x: tensor<?xf32>, %s: tensor<?xf32>, %init: tensor<f32>,
                      %big: tensor<300xf32>, %one: tensor<1xf32>) -> (tensor<?xf32>, tensor<300xf32>) {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<?xf32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %2 = "stablehlo.select_and_scatter"(%big, %one, %init) <{window_dimensions = array<i64: 300>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<300xf32>, tensor<1xf32>, tensor<f32>) -> tensor<300xf32>
  return %0, %2 : tensor<?xf32>, tensor<300xf32>
}

// -----

// A padded window too large to unroll is an error that names the window.
func.func @too_large(%x: tensor<300xf32>, %s: tensor<2xf32>, %init: tensor<f32>) -> tensor<300xf32> {
  // expected-error @+1 {{shlo-expand-select-and-scatter: a padded select_and_scatter window of 300 elements (window [300]) is more than the 256 this decomposition unrolls}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 300>, padding = dense<[[1, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<300xf32>, tensor<2xf32>, tensor<f32>) -> tensor<300xf32>
  return %0 : tensor<300xf32>
}

// -----

// A source computed by an op reaches the scatter through a fusion barrier (IREE's cpu backend
// fused a converted source into the scatter and kept all of it on the stack).
// CHECK-LABEL: func.func @computed_source
// CHECK:         %[[S:.*]] = stablehlo.convert %arg1 : (tensor<3xf16>) -> tensor<3xf32>
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[S]]
// CHECK:         "stablehlo.scatter"({{.*}}, {{.*}}, %[[B]])
func.func @computed_source(%x: tensor<4xf32>, %s16: tensor<3xf16>, %init: tensor<f32>) -> tensor<4xf32> {
  %s = stablehlo.convert %s16 : (tensor<3xf16>) -> tensor<3xf32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An operand computed by an op reaches its window slices through a fusion barrier (IREE's cpu
// backend fused a convert of a boolean argument into the slices' dispatch and kept all of it
// on the stack).
// CHECK-LABEL: func.func @computed_operand
// CHECK:         %[[X:.*]] = stablehlo.convert %arg0 : (tensor<4xi1>) -> tensor<4xf32>
// CHECK:         %[[B:.*]] = iree_tensor_ext.compute_barrier.start %[[X]]
// CHECK:         stablehlo.slice %[[B]]
func.func @computed_operand(%b: tensor<4xi1>, %s: tensor<3xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  %x = stablehlo.convert %b : (tensor<4xi1>) -> tensor<4xf32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %1 = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
