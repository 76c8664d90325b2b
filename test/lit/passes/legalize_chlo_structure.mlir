// RUN: shlo-opt --shlo-legalize-chlo %s | filecheck %s
// constant, constant_like, top_k, ragged_dot (three modes: one dot_general each), scan.

// CHECK-LABEL: func.func @constants
// CHECK-DAG:     stablehlo.constant dense<2.500000e+00> : tensor<2x3xf32>
// CHECK-DAG:     stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>
// CHECK-NOT:     chlo.
func.func @constants(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xcomplex<f32>>) {
  %0 = "chlo.constant_like"(%x) {value = 2.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  return %0, %1 : tensor<2x3xf32>, tensor<2xcomplex<f32>>
}

// A dynamic constant_like broadcasts a scalar to the operand's runtime shape.
// CHECK-LABEL: func.func @constant_like_dynamic
// CHECK:         %[[D:.*]] = stablehlo.get_dimension_size %arg0, dim = 0
// CHECK:         stablehlo.dynamic_broadcast_in_dim {{.*}} -> tensor<?x3xf32>
func.func @constant_like_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = "chlo.constant_like"(%x) {value = 1.0 : f32} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// top_k: a sort whose comparator is a strict total order (float keys as integers, ties by
// index), fenced from IREE's top-k rewrite, then slices; the sort carries its order for
// shlo-lower-sort (shlo.top_k_order).
// CHECK-LABEL: func.func @top_k
// CHECK:         %[[IOTA:.*]] = stablehlo.iota dim = 1 : tensor<3x8xi32>
// CHECK:         "stablehlo.sort"(%arg0, %[[IOTA]])
// CHECK:           stablehlo.bitcast_convert {{.*}} : (tensor<f32>) -> tensor<i32>
// CHECK:           stablehlo.compare  LT, {{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:         }) {shlo.top_k_order = true}
// CHECK:         stablehlo.optimization_barrier
// CHECK:         stablehlo.slice {{.*}} [0:3, 0:2]
// CHECK:         stablehlo.slice {{.*}} [0:3, 0:2]
func.func @top_k(%x: tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %0:2 = chlo.top_k(%x, k = 2) : tensor<3x8xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi32>
}

// Mode 1: lhs gains a masked group dimension, contracted with k against rhs's group dimension.
// CHECK-LABEL: func.func @ragged_mode1
// CHECK:         stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<11x5xf32>) -> tensor<11x5x3xf32>
// CHECK:         stablehlo.select {{.*}} : tensor<11x5x3xi1>, tensor<11x5x3xf32>
// CHECK:         stablehlo.dot_general {{.*}}, contracting_dims = [1, 2] x [1, 0]
// CHECK-SAME:      -> tensor<11x7xf32>
// CHECK-NOT:     stablehlo.dot_general
func.func @ragged_mode1(%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi64>) -> tensor<11x7xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<
    lhs_batching_dimensions = [], rhs_batching_dimensions = [],
    lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
    lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}
    : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  return %0 : tensor<11x7xf32>
}

// Mode 2: the group dimension stays free and leads the result.
// CHECK-LABEL: func.func @ragged_mode2
// CHECK:         stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<3x8xf32>) -> tensor<2x3x8xf32>
// CHECK:         stablehlo.dot_general {{.*}}, contracting_dims = [2] x [0]
// CHECK-SAME:      -> tensor<2x3x4xf32>
// CHECK-NOT:     stablehlo.dot_general
func.func @ragged_mode2(%l: tensor<3x8xf32>, %r: tensor<8x4xf32>, %g: tensor<2xi32>) -> tensor<2x3x4xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<
    lhs_batching_dimensions = [], rhs_batching_dimensions = [],
    lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
    lhs_ragged_dimensions = [1], rhs_group_dimensions = []>}
    : (tensor<3x8xf32>, tensor<8x4xf32>, tensor<2xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// Mode 3: a plain batched dot_general.
// CHECK-LABEL: func.func @ragged_mode3
// CHECK-NEXT:    stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, DEFAULT]
// CHECK-NEXT:    return
func.func @ragged_mode3(%l: tensor<3x2x5xf32>, %r: tensor<3x5x4xf32>, %g: tensor<2xi64>) -> tensor<3x2x4xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<
    lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
    lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
    lhs_ragged_dimensions = [0], rhs_group_dimensions = []>,
    precision_config = [#chlo<precision HIGHEST>, #chlo<precision DEFAULT>]}
    : (tensor<3x2x5xf32>, tensor<3x5x4xf32>, tensor<2xi64>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// scan: a while loop over the scan dimension with the body inlined.
// CHECK-LABEL: func.func @scan
// CHECK:         stablehlo.while
// CHECK:           stablehlo.compare  LT
// CHECK:           stablehlo.dynamic_slice
// CHECK:           stablehlo.add
// CHECK:           stablehlo.dynamic_update_slice
// CHECK-NOT:     chlo.
func.func @scan(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// A dynamic top_k: the same sort on a dynamic iota, then the first k along the last dimension.
// CHECK-LABEL: func.func @top_k_dynamic
// CHECK:         stablehlo.dynamic_iota
// CHECK:         stablehlo.sort
// CHECK-NOT:     stablehlo.optimization_barrier
// CHECK-COUNT-2: stablehlo.real_dynamic_slice
func.func @top_k_dynamic(%x: tensor<?x6xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<?x6xf32> -> (tensor<?x3xf32>, tensor<?x3xi32>)
  return %v, %i : tensor<?x3xf32>, tensor<?x3xi32>
}
